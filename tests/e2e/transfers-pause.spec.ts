// Pause and resume in the browser build: the page holds the file, so a paused upload stops its
// request and Resume sends the file again; it arrives whole and verified. The upload is slowed by
// the browser's own network throttling, so that it is surely still running when paused.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { expect, openContainer, rpc, test } from './support/fixtures.js';
import { head, objectNames, ownContainer, reloadApp, transferItem, transfersPanel, startThrottledUpload } from './transfers-helpers.js';

const SIZE = 24 * 1024 * 1024;

test('a browser upload paused from its row stops, and Resume sends it again to a verified object', async ({ app: page }, testInfo) => {
  const container = await ownContainer(page, 'pause');
  const path = testInfo.outputPath('big-pause.bin');
  const data = Buffer.alloc(SIZE, 3);
  writeFileSync(path, data);
  await reloadApp(page);
  await openContainer(page, container);

  const upload = await startThrottledUpload(page, path, 2 * 1024 * 1024);

  const item = transferItem(page, 'big-pause.bin', container);
  const progress = transfersPanel(page).getByRole('progressbar', { name: 'Progress of big-pause.bin' });
  await expect(item).toContainText('Running');
  await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0);
  await item.getByRole('button', { name: 'Pause big-pause.bin' }).click();
  await expect(item).toContainText('Paused');
  const [paused] = (await rpc<{ items: { name: string; state: string }[] }>(page, 'transfers.list', {})).items.filter((i) => i.name === 'big-pause.bin');
  expect(paused?.state).toBe('paused');
  expect(await objectNames(page, container)).toEqual([]);

  await upload.unthrottle();
  await item.getByRole('button', { name: 'Resume big-pause.bin' }).click();
  await expect(item).toContainText('Verified', { timeout: 30_000 });
  // Below the 64 MiB multipart threshold: one object whose ETag is the file's MD5.
  expect(await head(page, container, 'big-pause.bin')).toEqual(expect.objectContaining({ size: SIZE, etag: createHash('md5').update(data).digest('hex') }));
});
