// Changes made elsewhere (here: another client of the contract) reach an open folder through the
// objects-changed event, without a reload.
import { expect, openContainer, row, rpc, test } from './support/fixtures.js';
import { LIVE } from './support/seed-data.js';

test('a change made elsewhere appears in the open folder', async ({ app: page }) => {
  await openContainer(page, LIVE);
  const name = `made-elsewhere-${Date.now().toString(36)}`;
  await rpc(page, 'browse.createFolder', { account: 'local', container: LIVE, prefix: name });
  await expect(row(page, name)).toBeVisible();
  await rpc(page, 'browse.delete', { account: 'local', container: LIVE, prefixes: [`${name}/`] });
  await expect(row(page, name)).toHaveCount(0);
});
