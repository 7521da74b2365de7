// The differential protocol suite: every corpus row (corpus/) is sent to Coffer and to the real
// servers — the native API to OpenStack Swift (RGW's Swift API as a second opinion), S3 to Ceph
// RGW (Swift's s3api as a second opinion) — and what clients read of the answers is compared.
// A row fails on a difference from its API's reference that deviations.ts does not list; the
// deviations file fails when one of its entries no longer occurs. The run's figures go to
// reports/differential.json, which CI's closing summary prints as one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reference, skipReason } from '../reference/reference.js';
import { CORPUS } from './corpus/index.js';
import { DEVIATIONS } from './deviations.js';
import { describeDiff } from './runner.js';
import { makeReport, PRIMARY, runCorpus, setUp, staleDeviations, writeReport, type RowResult, type Run } from './suite.js';
import type { Api, RefName } from './types.js';

const REPORT = 'reports/differential.json';
const SKIPS: Record<'swift' | 'rgw', string | undefined> = { swift: skipReason('swift'), rgw: skipReason('rgw') };
const SERVER_OF: Record<RefName, 'swift' | 'rgw'> = { swift: 'swift', s3api: 'swift', rgw: 'rgw', 'rgw-swift': 'rgw' };
const anything = !SKIPS.swift || !SKIPS.rgw;

let run: Run | undefined;
const results = new Map<string, RowResult>();

beforeAll(async () => {
  if (!anything) return;
  // Both servers start at once (the first test file to ask starts each, once per run).
  const [swift, rgw] = await Promise.all([SKIPS.swift ?? reference('swift'), SKIPS.rgw ?? reference('rgw')]);
  run = await setUp({ swift, rgw });
  for (const r of await runCorpus(run)) results.set(r.row.id, r);
}, 900_000);

afterAll(async () => {
  if (!run) return;
  const report = makeReport(run, [...results.values()]);
  writeReport(REPORT, report);
  console.log(report.line);
  await run.coffer.close();
});

function rowsOf(api: Api) {
  return CORPUS.filter((r) => r.api === api);
}

for (const api of ['native', 's3'] as const) {
  const ref = PRIMARY[api];
  const skip = SKIPS[SERVER_OF[ref]];
  const title = `differential: ${api === 'native' ? 'native API against OpenStack Swift' : 'S3 API against Ceph RGW'}`;
  (skip ? describe.skip : describe)(skip ? `${title} (skipped: ${skip})` : title, () => {
    for (const row of rowsOf(api)) {
      const skippedHere = row.skip?.[ref];
      (skippedHere ? it.skip : it)(skippedHere ? `${row.id} (not sent to ${ref}: ${skippedHere})` : row.id, () => {
        const result = results.get(row.id);
        expect(result, 'the corpus did not run').toBeDefined();
        const unlisted = (result!.refs[ref] ?? []).filter((d) => !d.listedAs);
        expect(
          unlisted.map(describeDiff),
          `${row.id} differs from ${ref} where tests/differential/deviations.ts lists nothing: fix Coffer, or list the deviation with its reason`,
        ).toEqual([]);
      });
    }
  });
}

describe('differential: the deviations file', () => {
  it('names only rows of the corpus and the references that decide', () => {
    const ids = CORPUS.map((r) => r.id);
    const pattern = (p: string) => new RegExp(`^${p.split('*').map((x) => x.replace(/[.+?^$()|[\]\\{}]/g, '\\$&')).join('.*')}$`);
    for (const d of DEVIATIONS) {
      for (const r of [d.ref].flat()) expect(['swift', 'rgw'], `${d.id}: ref ${r}`).toContain(r);
      for (const p of d.rows ?? []) expect(ids.some((id) => pattern(p).test(id)), `${d.id}: no row matches ${p}`).toBe(true);
      expect(d.coffer && d.reference && d.reason, `${d.id}: says what Coffer does, what the reference does, and why`).toBeTruthy();
    }
  });

  (anything ? it : it.skip)('lists nothing that no longer occurs', () => {
    expect(run, 'the corpus did not run').toBeDefined();
    expect(staleDeviations([...results.values()], run!), 'entries that covered no difference in this run: remove them, the difference is gone').toEqual([]);
  });
});
