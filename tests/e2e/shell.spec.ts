// The browser build of the shell: what a user sees on first start.
import { expect, test } from '@playwright/test';

test.beforeEach(async ({ page }) => {
  await page.goto('/');
});

test('shows the app name and title', async ({ page }) => {
  await expect(page).toHaveTitle('Coffer');
  await expect(page.getByTestId('app-name')).toHaveText('Coffer');
});

test('lists the local store in the sidebar', async ({ page }) => {
  const stores = page.getByRole('navigation', { name: 'Stores' });
  await expect(stores.getByRole('button', { name: 'Local store' })).toBeVisible();
  await expect(page.getByTestId('store-local')).toHaveAttribute('aria-current', 'page');
});

test('shows the empty state when there are no containers', async ({ page }) => {
  const empty = page.getByTestId('empty-state');
  await expect(empty.getByRole('heading', { name: 'No containers yet' })).toBeVisible();
});

test('declares a strict content security policy', async ({ page }) => {
  const csp = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute('content');
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
});

test('renders without console errors or CSP violations', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.reload();
  await expect(page.getByTestId('app-shell')).toBeVisible();
  expect(problems).toEqual([]);
});
