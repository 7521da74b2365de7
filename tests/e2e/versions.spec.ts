// The versions of an object in a versioned container: listed in the details panel, one restored
// (it becomes the current version) and one deleted for good after a confirmation.
import { details, expect, openContainer, row, rpc, test } from './support/fixtures.js';
import { VERSIONED, VERSIONED_BODIES, VERSIONED_NAME } from './support/seed-data.js';

interface Version {
  versionId: string;
  isLatest: boolean;
  size: number;
}

test('lists versions, restores an old one and deletes another', async ({ app: page }) => {
  const ref = { account: 'local', container: VERSIONED, name: VERSIONED_NAME };
  const list = () => rpc<Version[]>(page, 'browse.listVersions', ref);
  const before = await list();
  expect(before).toHaveLength(3);
  const bySize = (body: string) => before.find((v) => v.size === body.length)!;
  const [v1body, v2body, v3body] = VERSIONED_BODIES as [string, string, string];
  expect(bySize(v3body).isLatest).toBe(true);

  await openContainer(page, VERSIONED);
  await row(page, VERSIONED_NAME).click();
  const panel = details(page);
  const table = panel.getByRole('table', { name: 'Versions' });
  await expect(table.getByRole('row')).toHaveCount(1 + 3);
  // The current version cannot be restored onto itself.
  await expect(table.getByRole('button', { name: `Restore version ${bySize(v3body).versionId}` })).toHaveCount(0);

  await table.getByRole('button', { name: `Restore version ${bySize(v1body).versionId}` }).click();
  await expect(table.getByRole('row')).toHaveCount(1 + 4);
  const size = panel.getByRole('table', { name: 'Properties' }).getByRole('row', { name: /^Size / }).getByRole('cell');
  await expect(size).toContainText(`${v1body.length} bytes`);
  const head = await rpc<{ size: number }>(page, 'browse.head', ref);
  expect(head.size).toBe(v1body.length);

  const gone = bySize(v2body).versionId;
  await table.getByRole('button', { name: `Delete version ${gone}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete version' });
  await expect(dialog).toContainText(gone);
  await dialog.getByRole('button', { name: 'Delete version' }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('row')).toHaveCount(1 + 3);
  expect((await list()).map((v) => v.versionId)).not.toContain(gone);
});
