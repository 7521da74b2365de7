// The queue's file on disk (transfers.json) on its own: a queue larger than one serialised slice
// comes back whole after a restart, unfinished items paused, the finished history bounded.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TransferItem } from '../../src-shared/contract/transfers.js';
import type { SavedPending } from '../../src-main/services/transfers/pending.js';
import { TransferFile, type SavedJob } from '../../src-main/services/transfers/persisted.js';
import { KEEP_FINISHED } from '../../src-main/services/transfers/job-index.js';

function saved(i: number, state: TransferItem['state']): SavedJob {
  const name = `folder/file-${i}.bin`;
  return {
    item: { id: `id-${i}`, batchId: 'b', direction: 'download', account: 'a', container: 'c', name, path: `/tmp/x/${name}`, size: 4096, resumable: true, transferred: 0, state, error: null, attempts: 0, verified: false, bytesPerSecond: null },
    spec: { kind: 'download', name, path: `/tmp/x/${name}` },
    resumeToken: null,
  };
}

describe('the transfer queue on disk', () => {
  it('writes a queue of thousands of items in slices that read back as one document', async () => {
    const file = join(mkdtempSync(join(os.tmpdir(), 'coffer-transfer-file-')), 'transfers.json');
    // More finished items than are kept, and queued and running ones across several slices.
    const jobs = [
      ...Array.from({ length: KEEP_FINISHED + 7 }, (_, i) => saved(i, 'done')),
      ...Array.from({ length: 1234 }, (_, i) => saved(10_000 + i, i % 3 === 0 ? 'running' : 'queued')),
    ];
    await new TransferFile(file, () => jobs, (j) => j).flush();
    expect((JSON.parse(readFileSync(file, 'utf8')) as { jobs: unknown[] }).jobs).toHaveLength(jobs.length);

    const back = new TransferFile(file, () => [], (j) => j).load().jobs;
    expect(back.filter((j) => j.item.state === 'done').map((j) => j.item.id)).toEqual(jobs.slice(7, KEEP_FINISHED + 7).map((j) => j.item.id));
    const unfinished = back.filter((j) => j.item.state !== 'done');
    expect(unfinished.map((j) => j.item.id)).toEqual(jobs.slice(KEEP_FINISHED + 7).map((j) => j.item.id));
    expect(unfinished.every((j) => j.item.state === 'paused')).toBe(true);
  });

  it("writes folders' pending files as one record a batch beside the jobs, and reads both back", async () => {
    const file = join(mkdtempSync(join(os.tmpdir(), 'coffer-transfer-file-')), 'transfers.json');
    const record: SavedPending = {
      batch: { batchId: 'b', account: 'a', container: 'c', kind: 'download' },
      idPrefix: 'p-',
      names: ['folder/a', ''],
      paths: ['/tmp/x/folder/a', ''],
      sizes: [4096, 10],
      states: [0, 3],
    };
    await new TransferFile(file, () => [saved(1, 'queued')], (j) => j, () => [record]).flush();
    const back = new TransferFile(file, () => [], (j) => j).load();
    expect(back.jobs.map((j) => [j.item.id, j.item.state])).toEqual([['id-1', 'paused']]);
    expect(back.pending).toEqual([record]);
  });

  it("forgets an unfinished upload's 'no object under this name' from its plan: after a restart the name is looked at again", async () => {
    const file = join(mkdtempSync(join(os.tmpdir(), 'coffer-transfer-file-')), 'transfers.json');
    const upload = (i: number, state: TransferItem['state']): SavedJob => {
      const job = saved(i, state);
      return { ...job, item: { ...job.item, direction: 'upload' }, spec: { kind: 'path', path: job.item.path!, name: job.item.name, absent: true } };
    };
    await new TransferFile(file, () => [upload(1, 'done'), upload(2, 'running')], (j) => j).flush();
    const back = new TransferFile(file, () => [], (j) => j).load().jobs;
    expect(back.map((j) => [j.item.state, j.spec])).toEqual([
      ['done', { kind: 'path', path: '/tmp/x/folder/file-1.bin', name: 'folder/file-1.bin', absent: true }],
      ['paused', { kind: 'path', path: '/tmp/x/folder/file-2.bin', name: 'folder/file-2.bin' }],
    ]);
  });

  it("waits longer between writes of a large queue: 500 ms for a few items, seconds for a folder's history, never over 30 s", async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'coffer-transfer-file-'));
    const few = new TransferFile(join(dir, 'few.json'), () => [saved(1, 'running'), saved(2, 'queued')], (j) => j);
    await few.flush();
    expect(few.delayMs).toBeLessThan(1000);
    // A folder's download as the queue holds it: its kept history of finished files and the running ones.
    const folder = [...Array.from({ length: KEEP_FINISHED }, (_, i) => saved(i, 'done')), ...Array.from({ length: 48 }, (_, i) => saved(5000 + i, 'running'))];
    const large = new TransferFile(join(dir, 'large.json'), () => folder, (j) => j);
    await large.flush();
    const bytes = statSync(join(dir, 'large.json')).size;
    expect(bytes).toBeGreaterThan(300_000);
    // Rewritten no faster than 64 KiB a second.
    expect(large.delayMs).toBeGreaterThanOrEqual((bytes / 65536) * 1000);
    expect(large.delayMs).toBeLessThanOrEqual(30_000);
    const huge = new TransferFile(join(dir, 'huge.json'), () => Array.from({ length: 20_000 }, (_, i) => saved(i, 'queued')), (j) => j);
    await huge.flush();
    expect(huge.delayMs).toBe(30_000);
  });

  it('writes an empty queue, and a queue of exactly one slice', async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'coffer-transfer-file-'));
    await new TransferFile(join(dir, 'empty.json'), () => [], (j: SavedJob) => j).flush();
    expect(new TransferFile(join(dir, 'empty.json'), () => [], (j) => j).load()).toEqual({ jobs: [], pending: [] });
    const jobs = Array.from({ length: 500 }, (_, i) => saved(i, 'queued'));
    await new TransferFile(join(dir, 'slice.json'), () => jobs, (j) => j).flush();
    expect(new TransferFile(join(dir, 'slice.json'), () => [], (j) => j).load().jobs).toHaveLength(500);
  });
});
