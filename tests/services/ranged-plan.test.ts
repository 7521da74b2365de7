// How a download is split (ranged-plan.ts: rangedPlan), with the backend's answer about the
// object's parts scripted: part by part where it lays them out or guesses them; four ranges,
// checked by length, for a large object it can do neither for; a refused question never fails the download,
// but the network, a cancel, or the object gone or changed do.
import { describe, expect, it } from 'vitest';
import type { ObjectBackend, PartLayout } from '../../src-main/backends/object-backend.js';
import { RANGED_DOWNLOAD_BYTES, rangedPlan } from '../../src-main/services/transfers/ranged-plan.js';
import type { RunContext } from '../../src-main/services/transfers/job.js';
import { CofferError } from '../../src-shared/errors.js';
import type { ObjectDetails } from '../../src-shared/model/storage.js';

const MiB = 1024 * 1024;
const layout: PartLayout = { parts: [{ start: 0, end: 8 * MiB }, { start: 8 * MiB, end: 9 * MiB }], etagOf: () => 'x-2' };

function ctxWith(partLayout: ObjectBackend['partLayout']): RunContext {
  return { backend: { partLayout } as ObjectBackend, signal: new AbortController().signal, progress: () => undefined, setSize: () => undefined, resumeToken: null, saveResumeToken: () => undefined };
}
const head = (size: number, etag: string, composite = false) => ({ size, etag, ...(composite ? { compositeEtag: true } : {}) }) as ObjectDetails;
const plan = (ctx: RunContext, h: ObjectDetails) => rangedPlan(ctx, 'c', 'big.bin', h);
const refused = (code: ConstructorParameters<typeof CofferError>[0]) => () => Promise.reject(new CofferError(code, 'no'));

describe('how a download is split', () => {
  it('goes in one stream when the ETag is the MD5 of the bytes, without asking for parts', async () => {
    let asked = false;
    const ctx = ctxWith(async () => ((asked = true), layout));
    expect(await plan(ctx, head(RANGED_DOWNLOAD_BYTES * 2, 'd41d8cd98f00b204e9800998ecf8427e'))).toBeUndefined();
    expect(asked).toBe(false);
  });

  it('goes part by part where the backend lays the parts out, at any size', async () => {
    expect(await plan(ctxWith(async () => layout), head(9 * MiB, 'abc-2'))).toEqual({ ranges: layout.parts, layout });
    // A Swift SLO's ETag looks like an MD5 but is not the bytes'.
    expect(await plan(ctxWith(async () => layout), head(9 * MiB, 'd41d8cd98f00b204e9800998ecf8427e', true))).toEqual({ ranges: layout.parts, layout });
  });

  it('without a layout: four ranges from 256 MiB, checked by length, one stream below', async () => {
    const none = ctxWith(async () => undefined);
    const big = await plan(none, head(RANGED_DOWNLOAD_BYTES, 'abc-40'));
    expect(big).toEqual({ ranges: [0, 1, 2, 3].map((i) => ({ start: (i * RANGED_DOWNLOAD_BYTES) / 4, end: ((i + 1) * RANGED_DOWNLOAD_BYTES) / 4 })) });
    expect(await plan(none, head(9 * MiB, 'abc-2'))).toBeUndefined();
    expect(await plan(ctxWith(undefined), head(9 * MiB, 'abc-2'))).toBeUndefined();
  });

  it("without the server's layout, part by part in the parts the backend guesses, at any size", async () => {
    const guessed: PartLayout = { ...layout, guessed: true };
    const ctx = { ...ctxWith(async () => undefined), backend: { partLayout: async () => undefined, guessPartLayout: () => guessed } as unknown as ObjectBackend };
    expect(await plan(ctx, head(9 * MiB, 'abc-2'))).toEqual({ ranges: guessed.parts, layout: guessed });
    const refusing = { ...ctx, backend: { ...ctx.backend, partLayout: refused('NotSupported') } as ObjectBackend };
    expect(await plan(refusing, head(RANGED_DOWNLOAD_BYTES, 'abc-2'))).toEqual({ ranges: guessed.parts, layout: guessed });
  });

  it('goes on checked by length when the server refuses the question', async () => {
    for (const code of ['AccessDenied', 'NotSupported', 'InvalidArgument'] as const) {
      expect(await plan(ctxWith(refused(code)), head(RANGED_DOWNLOAD_BYTES, 'abc-40'))).toMatchObject({ ranges: { length: 4 } });
      expect(await plan(ctxWith(refused(code)), head(9 * MiB, 'abc-2'))).toBeUndefined();
    }
  });

  it('fails with the network, a cancel, or the object gone or changed', async () => {
    for (const code of ['Unreachable', 'NoSuchKey', 'PreconditionFailed', 'AuthFailed'] as const) {
      await expect(plan(ctxWith(refused(code)), head(9 * MiB, 'abc-2'))).rejects.toMatchObject({ code });
    }
    const gone = new AbortController();
    gone.abort();
    const ctx = { ...ctxWith(refused('AccessDenied')), signal: gone.signal };
    await expect(plan(ctx, head(9 * MiB, 'abc-2'))).rejects.toMatchObject({ code: 'AccessDenied' });
  });
});
