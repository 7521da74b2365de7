// The differential suite without a test runner: sets up the targets, runs the corpus on them, and
// sums the result into the report CI prints (reports/differential.json). The vitest file and the
// command-line runner (cli.ts) both use it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { rgwAdmin } from '../reference/rgw.js';
import type { RgwEndpoints, SwiftEndpoints } from '../reference/reference.js';
import { CORPUS } from './corpus/index.js';
import { DEVIATIONS } from './deviations.js';
import { FIXTURES } from './fixtures.js';
import { differences, fixtureNames, judge, pool, prepareFixtures, runRow, type Judged } from './runner.js';
import { cofferTargets, rgwTargets, startCoffer, swiftTargets, swiftVersion, type CofferServer, type Target } from './targets.js';
import type { Api, Observation, RefName, Row } from './types.js';

/** Each API's reference, which decides, and its second opinion, which is reported. */
export const PRIMARY: Record<Api, RefName> = { native: 'swift', s3: 'rgw' };
export const SECOND: Record<Api, RefName> = { native: 'rgw-swift', s3: 's3api' };

export interface RowResult {
  row: Row;
  /** Per reference the row was sent to: its differences from Coffer, judged. */
  refs: Partial<Record<RefName, Judged[]>>;
  /** References not asked, with why. */
  skipped: Partial<Record<RefName, string>>;
}

export interface Run {
  runTag: string;
  coffer: CofferServer;
  targets: Partial<Record<'coffer-native' | 'coffer-s3' | RefName, Target>>;
  /** Why a reference is missing from this run. */
  unavailable: Partial<Record<RefName, string>>;
}

function rgwVersion(): string {
  const r = spawnSync('radosgw', ['--version'], { encoding: 'utf8' });
  return /ceph version (\S+)/.exec(r.stdout ?? '')?.[1] ?? 'unknown';
}

/** Coffer and whichever references are given; a reference given as a string is the reason it is missing. */
export async function setUp(refs: { swift: SwiftEndpoints | string; rgw: RgwEndpoints | string }): Promise<Run> {
  const runTag = `d${randomBytes(4).toString('hex').slice(0, 5)}`;
  const coffer = await startCoffer();
  const run: Run = { runTag, coffer, targets: {}, unavailable: {} };
  try {
    const c = await cofferTargets(coffer, runTag);
    run.targets['coffer-native'] = c.native;
    run.targets['coffer-s3'] = c.s3;
    if (typeof refs.swift === 'string') run.unavailable.swift = run.unavailable.s3api = refs.swift;
    else {
      const s = await swiftTargets(refs.swift, await swiftVersion(refs.swift), runTag);
      run.targets.swift = s.native;
      run.targets.s3api = s.s3;
    }
    if (typeof refs.rgw === 'string') run.unavailable.rgw = run.unavailable['rgw-swift'] = refs.rgw;
    else {
      // Every row has buckets of its own, native rows included (RGW's Swift containers are its
      // buckets): more than RGW's default of 1,000 per user once the corpus runs twice on one server.
      for (const u of [refs.rgw.users.differential, refs.rgw.users.differentialOther]) rgwAdmin(refs.rgw, ['user', 'modify', '--uid', u.uid, '--max-buckets', '100000']);
      const r = await rgwTargets(refs.rgw, rgwVersion(), runTag);
      run.targets.rgw = r.s3;
      run.targets['rgw-swift'] = r.native;
    }
    const all = Object.values(run.targets);
    await Promise.all(all.map((t) => prepareFixtures(t, FIXTURES, runTag)));
    return run;
  } catch (err) {
    await coffer.close();
    throw err;
  }
}

/** Runs the rows (four at a time; each row has its own containers) on Coffer and every available reference of its API. */
export async function runCorpus(run: Run, rows: Row[] = CORPUS, concurrency = 4): Promise<RowResult[]> {
  const fixtureVars = { native: fixtureNames(run.runTag, FIXTURES, 'native'), s3: fixtureNames(run.runTag, FIXTURES, 's3') };
  return pool(rows, concurrency, async (row) => {
    const index = CORPUS.indexOf(row);
    const coffer = run.targets[row.api === 'native' ? 'coffer-native' : 'coffer-s3']!;
    const refNames = [PRIMARY[row.api], SECOND[row.api]];
    const skipped: RowResult['skipped'] = {};
    const asked: RefName[] = [];
    for (const r of refNames) {
      const why = row.skip?.[r] ?? run.unavailable[r];
      if (why) skipped[r] = why;
      else asked.push(r);
    }
    const [mine, ...theirs] = await Promise.all([coffer, ...asked.map((r) => run.targets[r]!)].map((t) => runRow(t, row, index, run.runTag, fixtureVars[row.api])));
    const observed = new Map<RefName, Observation>(asked.map((r, i) => [r, theirs[i]!]));
    const refs: RowResult['refs'] = {};
    for (const r of asked) {
      const judged = judge(differences(row.id, r, mine!, observed.get(r)!), DEVIATIONS);
      // Where Coffer and the reference disagree, what the second opinion says about the same field.
      const second = r === PRIMARY[row.api] ? observed.get(SECOND[row.api]) : undefined;
      if (second) for (const d of judged) d.secondOpinion = d.field === 'status' ? String(second.status) : (second.fields.get(d.field) ?? '(absent)');
      refs[r] = judged;
    }
    return { row, refs, skipped };
  });
}

export interface Report {
  /** The line CI prints. */
  line: string;
  corpus: Record<Api, number>;
  /**
   * Per server: rows asked, rows whose answers agree in every compared field, and rows that agree
   * at least in status and S3 error code (what a client decides on first).
   */
  references: Partial<Record<RefName, { label: string; role: 'reference' | 'second opinion'; asked: number; agree: number; sameStatus: number; unavailable?: string }>>;
  deviations: { listed: number; occurring: number; stale: string[]; byIssue: Record<string, number> };
  unlisted: number;
  /** Every difference of every row, for whoever reads the report. */
  rows: { id: string; api: Api; ref: RefName; differences: Judged[] }[];
}

/** The deviations that covered nothing in this run, among those about references that ran. */
export function staleDeviations(results: RowResult[], run: Pick<Run, 'unavailable'>): string[] {
  const used = new Set<string>();
  for (const r of results) for (const list of Object.values(r.refs)) for (const d of list ?? []) if (d.listedAs) used.add(d.listedAs);
  return DEVIATIONS.filter((d) => {
    const refs = Array.isArray(d.ref) ? d.ref : [d.ref];
    return refs.some((r) => !run.unavailable[r]) && !used.has(d.id);
  }).map((d) => d.id);
}

export function makeReport(run: Run, results: RowResult[]): Report {
  const corpus = { native: CORPUS.filter((r) => r.api === 'native').length, s3: CORPUS.filter((r) => r.api === 's3').length };
  const references: Report['references'] = {};
  for (const api of ['native', 's3'] as const) {
    for (const ref of [PRIMARY[api], SECOND[api]]) {
      const rows = results.filter((r) => r.row.api === api && r.refs[ref]);
      references[ref] = {
        label: run.targets[ref]?.label ?? ref,
        role: ref === PRIMARY[api] ? 'reference' : 'second opinion',
        asked: rows.length,
        agree: rows.filter((r) => r.refs[ref]!.length === 0).length,
        sameStatus: rows.filter((r) => !r.refs[ref]!.some((d) => ['status', 'code', 'setup', 'error'].includes(d.field))).length,
        ...(run.unavailable[ref] ? { unavailable: run.unavailable[ref] } : {}),
      };
    }
  }
  const stale = staleDeviations(results, run);
  const byIssue: Record<string, number> = {};
  for (const d of DEVIATIONS) byIssue[d.issue ? `issue ${d.issue}` : 'intended'] = (byIssue[d.issue ? `issue ${d.issue}` : 'intended'] ?? 0) + 1;
  const rows = results.flatMap((r) =>
    Object.entries(r.refs)
      .filter(([, list]) => list!.length)
      .map(([ref, list]) => ({ id: r.row.id, api: r.row.api, ref: ref as RefName, differences: list! })),
  );
  const unlisted = rows.filter((r) => r.ref === PRIMARY[r.api]).reduce((n, r) => n + r.differences.filter((d) => !d.listedAs).length, 0);
  const part = (api: Api) => {
    const p = references[PRIMARY[api]]!;
    const s = references[SECOND[api]]!;
    const main = p.unavailable ? 'not compared (its reference is not installed here)' : `${p.agree}/${p.asked} agree with ${p.label}, ${p.sameStatus}/${p.asked} in status and code`;
    const second = s.unavailable ? 'unavailable' : `${s.agree}/${s.asked}`;
    return `${main} (second opinion, ${api === 'native' ? "RGW's Swift API" : "Swift's s3api"}: ${second})`;
  };
  const tail = [stale.length ? `${stale.length} no longer occurring` : '', unlisted ? `${unlisted} differences not listed` : ''].filter(Boolean).join(', ');
  const line = `differential: native ${part('native')}; S3 ${part('s3')}; ${DEVIATIONS.length} deviations listed${tail ? ` (${tail})` : ''}`;
  return { line, corpus, references, deviations: { listed: DEVIATIONS.length, occurring: DEVIATIONS.length - stale.length, stale, byIssue }, unlisted, rows };
}

export function writeReport(file: string, report: Report): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 1)}\n`);
}
