// The transfers panel opened from the status bar: its concurrency setting is the queue's own
// (read back from the server), and it starts from what the server says.
import { expect, rpc, test } from './support/fixtures.js';
import { transfersPanel } from './transfers-helpers.js';

test('the "At once" setting changes the queue\'s concurrency on the server', async ({ app: page }) => {
  const before = (await rpc<{ concurrency: number }>(page, 'transfers.list', {})).concurrency;
  const other = before === 16 ? 15 : before + 1;
  await page.getByRole('contentinfo', { name: 'Status bar' }).getByRole('button', { name: /^Transfers/ }).click();
  const setting = transfersPanel(page).getByRole('combobox', { name: 'At once' });
  await expect(setting).toHaveValue(String(before));
  try {
    await setting.selectOption(String(other));
    await expect.poll(async () => (await rpc<{ concurrency: number }>(page, 'transfers.list', {})).concurrency).toBe(other);
  } finally {
    // The queue is shared with the other tests: put it back.
    await setting.selectOption(String(before));
    await expect.poll(async () => (await rpc<{ concurrency: number }>(page, 'transfers.list', {})).concurrency).toBe(before);
  }
});
