// What every browser test starts from: the app opened through its session URL, and a few
// helpers that act the way a user does (roles and names, no CSS selectors).
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export { expect };

export function token(): string {
  const value = process.env.COFFER_E2E_TOKEN;
  if (!value) throw new Error('The global setup did not start coffer serve (COFFER_E2E_TOKEN unset)');
  return value;
}

export const test = base.extend<{ app: Page }>({
  app: async ({ page }, use) => {
    // The CSP has no 'unsafe-inline': anything the app does that needs it shows up here.
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(`/_coffer/?token=${token()}`);
    await expect(page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: /Local store/ })).toBeVisible();
    await use(page);
    expect(violations, 'Content Security Policy violations').toEqual([]);
  },
});

/** Calls the contract the way the renderer does (same session cookie), e.g. to change data behind the UI's back. */
export async function rpc<T = unknown>(page: Page, method: string, arg: unknown): Promise<T> {
  const res = await page.request.post('/_coffer/rpc', { data: { method, arg } });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
  if (!body.ok) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.value;
}

export function grid(page: Page): Locator {
  return page.getByRole('grid', { name: /^Contents of / });
}

/** A grid row by the entry's name as shown (folder names without their slash). */
export function row(page: Page, label: string): Locator {
  return grid(page).getByRole('row').filter({ has: page.getByRole('gridcell', { name: label, exact: true }) });
}

export async function openContainer(page: Page, name: string): Promise<void> {
  await page.getByRole('table', { name: 'Containers' }).getByRole('button', { name, exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Location' }).getByRole('button', { name, exact: true })).toHaveAttribute('aria-current', 'page');
}

export function breadcrumbs(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Location' });
}

export function details(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Details' });
}
