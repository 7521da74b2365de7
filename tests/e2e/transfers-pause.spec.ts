// Pause and resume in the browser build: the page holds the file, so a paused upload stops its
// request and Resume sends the file again; it arrives whole and verified. The upload is slowed by
// the browser's own network throttling, so that it is surely still running when paused.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { expect, openContainer, rpc, test } from './support/fixtures.js';
import { SCREENS } from './support/screens.js';
import { head, objectNames, ownContainer, reloadApp, transferItem, transfersPanel, startThrottledUpload } from './transfers-helpers.js';

const SIZE = 24 * 1024 * 1024;

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('a browser upload paused from its row stops, and Resume sends it again to a verified object', async ({ app: page }, testInfo) => {
      const container = await ownContainer(page, 'pause');
      // The queue is the server's, shared by both screens' runs: a name of this run's own.
      const name = `big-pause-${screen.viewport.width}.bin`;
      const path = testInfo.outputPath(name);
      const data = Buffer.alloc(SIZE, 3);
      writeFileSync(path, data);
      await reloadApp(page);
      await openContainer(page, container);

      const upload = await startThrottledUpload(page, path, 2 * 1024 * 1024);

      const item = transferItem(page, name, container);
      const progress = transfersPanel(page).getByRole('progressbar', { name: `Progress of ${name}` });
      await expect(item).toContainText('Running');
      await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0);
      await item.getByRole('button', { name: `Pause ${name}` }).click();
      await expect(item).toContainText('Paused');
      const [paused] = (await rpc<{ items: { name: string; state: string }[] }>(page, 'transfers.list', {})).items.filter((i) => i.name === name);
      expect(paused?.state).toBe('paused');
      expect(await objectNames(page, container)).toEqual([]);

      await upload.unthrottle();
      await item.getByRole('button', { name: `Resume ${name}` }).click();
      await expect(item).toContainText('Verified', { timeout: 30_000 });
      // Below the 64 MiB multipart threshold: one object whose ETag is the file's MD5.
      expect(await head(page, container, name)).toEqual(expect.objectContaining({ size: SIZE, etag: createHash('md5').update(data).digest('hex') }));
    });
  });
}
