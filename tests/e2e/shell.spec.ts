// The application shell: sidebar of connections, main area, status bar; the page's own safety.
import { expect, test } from './support/fixtures.js';

test('shows the app, the local store first and connected, and a status bar', async ({ app: page }) => {
  await expect(page).toHaveTitle('Coffer');
  const nav = page.getByRole('navigation', { name: 'Connections' });
  const first = nav.getByRole('listitem').first().getByRole('button');
  await expect(first).toHaveAccessibleName(/^Local store/);
  await expect(first).toContainText('Connected');
  await expect(first).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('store-local')).toBeVisible();
  await expect(page.getByRole('main', { name: 'Main area' }).getByRole('heading', { level: 1, name: 'Local store' })).toBeVisible();
  await expect(page.getByRole('contentinfo', { name: 'Status bar' })).toContainText('Local store: Connected');
});

test('declares a strict content security policy', async ({ app: page }) => {
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toMatch(/'unsafe-(inline|eval)'/);
  const res = await page.request.get('/_coffer/');
  expect(res.headers()['content-security-policy']).toContain("script-src 'self'");
});

test('renders without console errors or CSP violations', async ({ app: page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.reload();
  await expect(page.getByRole('table', { name: 'Containers' })).toBeVisible();
  await page.getByRole('tab', { name: 'Endpoints and keys' }).click();
  await expect(page.getByRole('heading', { name: 'Endpoints', exact: true })).toBeVisible();
  expect(problems).toEqual([]);
});

test('has an icon of its own, served under the CSP, and nothing the page asks for is refused', async ({ app: page }) => {
  const failed: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
  });
  await page.reload();
  await expect(page.getByRole('table', { name: 'Containers' })).toBeVisible();
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBeTruthy();
  const icon = await page.request.get(new URL(href!, page.url()).href);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toBe('image/svg+xml');
  expect(failed).toEqual([]);
});

test('an unreachable server is said plainly, with a retry that works once it answers', async ({ app: page }) => {
  await expect(page.getByRole('table', { name: 'Containers' })).toBeVisible();
  await page.route('**/_coffer/rpc', (route) => route.abort('connectionrefused'));
  await page.getByRole('table', { name: 'Containers' }).getByRole('button', { name: 'archive', exact: true }).click();
  // The folder says so (the sidebar may too, if it asked the server meanwhile).
  const alert = page.getByRole('region', { name: 'archive/' }).getByRole('alert').filter({ hasText: 'Cannot reach the Coffer server' });
  await expect(alert).toBeVisible();
  await page.unroute('**/_coffer/rpc');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('grid', { name: /^Contents of archive/ }).getByRole('row', { name: /^logs/ })).toBeVisible();
});

test('an expired session says so and offers a retry', async ({ app: page, context }) => {
  await expect(page.getByRole('table', { name: 'Containers' })).toBeVisible();
  const cookies = await context.cookies();
  await context.clearCookies();
  await page.getByRole('table', { name: 'Containers' }).getByRole('button', { name: 'archive', exact: true }).click();
  // The folder says so (the sidebar may too, if it asked the server meanwhile).
  const alert = page.getByRole('region', { name: 'archive/' }).getByRole('alert').filter({ hasText: 'Your session has expired' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
  await context.addCookies(cookies);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('grid', { name: /^Contents of archive/ }).getByRole('row', { name: /^docs/ })).toBeVisible();
});
