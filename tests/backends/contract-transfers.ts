// Contract cases: uploads (file, stream) with progress, downloads (whole, range), cancellation.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { FixtureRef } from './contract.js';
import { chunkedStream, containerName, expectCode, readAll, slowStream, tempFile } from './helpers.js';

/** Progress values must only grow and end on the total. */
function expectProgress(values: number[], total: number): void {
  expect(values.length).toBeGreaterThan(0);
  expect(values.at(-1)).toBe(total);
  for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
}

export function transferCases(get: FixtureRef): void {
  describe('transfers', () => {
    it('uploads a file by path with progress; downloads it byte for byte, and a range of it', async () => {
      const { backend } = get();
      const c = containerName('path');
      await backend.createContainer(c);
      const data = randomBytes(700_000);
      const file = tempFile(data);
      try {
        const progress: number[] = [];
        const d = await backend.upload(c, 'files/blob.bin', { path: file.path }, { onProgress: (n) => progress.push(n) });
        expect(d.size).toBe(data.length);
        expectProgress(progress, data.length);
      } finally {
        file.remove();
      }
      const down: number[] = [];
      const whole = await backend.download(c, 'files/blob.bin', { onProgress: (n) => down.push(n) });
      expect(whole.details.size).toBe(data.length);
      expect((await readAll(whole.body)).equals(data)).toBe(true);
      expectProgress(down, data.length);

      const part = await backend.download(c, 'files/blob.bin', { range: { start: 1000, end: 1999 } });
      expect((await readAll(part.body)).equals(data.subarray(1000, 2000))).toBe(true);
      expect(part.details.size).toBe(data.length);
      const tail = await backend.download(c, 'files/blob.bin', { range: { start: data.length - 10 } });
      expect((await readAll(tail.body)).equals(data.subarray(data.length - 10))).toBe(true);
    });

    it('uploads a stream of unknown size; progress is throttled (a few reports a second, not one per chunk)', async () => {
      const { backend } = get();
      const c = containerName('stream');
      await backend.createContainer(c);
      const data = randomBytes(2 * 1024 * 1024);
      const progress: number[] = [];
      const started = Date.now();
      await backend.upload(c, 'piped', { stream: chunkedStream(data, 1024) }, { onProgress: (n) => progress.push(n) });
      const seconds = (Date.now() - started) / 1000;
      expectProgress(progress, data.length);
      // 2048 chunks went by; at most ~5 reports a second plus the final one.
      expect(progress.length).toBeLessThanOrEqual(Math.ceil(seconds * 5) + 2);
      expect((await readAll((await backend.download(c, 'piped')).body)).equals(data)).toBe(true);
    });

    it('an upload cancelled midway fails with Aborted and leaves nothing visible', async () => {
      const f = get();
      const { backend } = f;
      const c = containerName('cancel');
      await backend.createContainer(c);
      const ac = new AbortController();
      let seen = 0;
      // 40 MiB trickling in 1 MiB pieces: past one multipart part before the cancel comes.
      const run = backend.upload(c, 'big.bin', { stream: slowStream(40 * 1024 * 1024, 1024 * 1024, 20) }, {
        signal: ac.signal,
        onProgress: (n) => {
          seen = n;
          if (n >= 10 * 1024 * 1024) ac.abort();
        },
      });
      await expectCode(run, 'Aborted');
      expect(seen).toBeGreaterThan(0);
      await sleep(100);
      await expectCode(backend.head(c, 'big.bin'), 'NoSuchKey');
      const names: string[] = [];
      for await (const page of backend.listFolder(c, { delimiter: '' })) names.push(...page.entries.map((e) => (e.kind === 'folder' ? e.prefix : e.name)));
      expect(names).toEqual([]);
      if (f.pendingUploads) expect(await f.pendingUploads(c)).toBe(0);
    });

    it('a signal aborted before the start cancels at once; a download cancelled midway errors its stream', async () => {
      const { backend } = get();
      const c = containerName('cancel2');
      await backend.createContainer(c);
      await expectCode(backend.upload(c, 'x', { stream: chunkedStream(Buffer.from('x')) }, { signal: AbortSignal.abort() }), 'Aborted');
      await expectCode(backend.head(c, 'x'), 'NoSuchKey');

      await backend.upload(c, 'big', { stream: chunkedStream(randomBytes(4 * 1024 * 1024), 65536) });
      const ac = new AbortController();
      const { body } = await backend.download(c, 'big', { signal: ac.signal });
      const reading = (async () => {
        for await (const _ of body) ac.abort();
      })();
      await expect(reading).rejects.toMatchObject({ code: 'Aborted' });
    });
  });
}
