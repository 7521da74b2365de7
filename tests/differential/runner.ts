// Runs the corpus: every row's set-up and request on Coffer and on each reference of its API,
// compares what clients read, and judges each difference against the deviations file.
import { createHash } from 'node:crypto';
import { observe } from './observe.js';
import type { Target } from './targets.js';
import type { Body, Deviation, Difference, Observation, RefName, Req, Row } from './types.js';

/** A fixture: a container (native) or bucket (S3) filled once per target, read by many rows as `{f:NAME}`. */
export interface Fixture {
  name: string;
  api: Row['api'];
  /** Steps with `{c}` / `{b}` as the fixture's own name. */
  steps: Req[];
}

const bodies = new Map<string, Buffer>();

/** `size` bytes that are the same on every target and every run (SHA-256 in counter mode over the seed). */
function deterministic(size: number, seed = 'coffer'): Buffer {
  const key = `${size}/${seed}`;
  let b = bodies.get(key);
  if (!b) {
    b = Buffer.alloc(size);
    for (let i = 0, off = 0; off < size; i++, off += 32) createHash('sha256').update(`${seed}:${i}`).digest().copy(b, off);
    bodies.set(key, b);
  }
  return b;
}

export function substitute(s: string, vars: Record<string, string>): string {
  return s.replace(/\{([a-z][a-z0-9:+\-_]*)\}/gi, (whole, name: string) => {
    const m = /^(http-date|epoch)([+-]\d+)$/.exec(name);
    if (m) {
      const at = Date.now() + Number(m[2]) * 1000;
      return m[1] === 'epoch' ? String(Math.floor(at / 1000)) : new Date(at).toUTCString();
    }
    const padded = /^(c|c2|b|b2):(\d+)$/.exec(name);
    if (padded) {
      const v = vars[padded[1]!];
      if (v === undefined) throw new Error(`unknown placeholder ${whole}`);
      return v.padEnd(Number(padded[2]), 'n');
    }
    if (name.startsWith('url:')) {
      const v = vars[name.slice(4)];
      if (v === undefined) throw new Error(`unknown placeholder ${whole}`);
      return encodeURIComponent(v);
    }
    const v = vars[name];
    if (v === undefined) throw new Error(`unknown placeholder ${whole}`);
    return v;
  });
}

function bodyOf(b: Body | undefined, vars: Record<string, string>): Buffer {
  if (b === undefined) return Buffer.alloc(0);
  if (typeof b === 'string') return Buffer.from(substitute(b, vars), 'utf8');
  return deterministic(b.size, b.seed);
}

async function send(t: Target, req: Req, vars: Record<string, string>) {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k] = substitute(v, vars);
  const signed = req.sigv2Resource === undefined ? req : { ...req, sigv2Resource: substitute(req.sigv2Resource, vars) };
  return t.send(signed, substitute(req.path, vars), headers, bodyOf(req.body, vars));
}

function captureFrom(spec: string, res: { headers: Record<string, unknown>; body: Buffer }): string | undefined {
  const [kind, name = ''] = spec.split(/:(.*)/s);
  if (kind === 'header') {
    const v = res.headers[name.toLowerCase()];
    return Array.isArray(v) ? String(v[0]) : typeof v === 'string' ? v : undefined;
  }
  if (kind === 'xml') return new RegExp(`<${name}>([^<]*)</${name}>`).exec(res.body.toString('utf8'))?.[1];
  throw new Error(`unknown capture ${spec}`);
}

/** The names a row's placeholders stand for on every target (the same names everywhere). */
export function rowNames(runTag: string, index: number, api: Row['api']): Record<string, string> {
  return api === 'native' ? { c: `${runTag}n${index}`, c2: `${runTag}n${index}x` } : { b: `${runTag}s${index}`, b2: `${runTag}s${index}x` };
}

/** `{f:NAME}` of one API's fixtures (each API has its own, so the names differ: `<run>fn-listing`, `<run>fs-listing`). */
export function fixtureNames(runTag: string, fixtures: Fixture[], api: Row['api']): Record<string, string> {
  return Object.fromEntries(fixtures.filter((f) => f.api === api).map((f) => [`f:${f.name}`, `${runTag}f${api === 'native' ? 'n' : 's'}-${f.name}`]));
}

/** Fills the fixtures on one target; throws on any failed step (every row reading it would be wrong). */
export async function prepareFixtures(t: Target, fixtures: Fixture[], runTag: string): Promise<void> {
  const names = fixtureNames(runTag, fixtures, t.api);
  for (const f of fixtures.filter((x) => x.api === t.api)) {
    const own = names[`f:${f.name}`]!;
    const vars = { ...t.vars, ...names, c: own, b: own };
    for (const step of f.steps) {
      const res = await send(t, step, vars);
      if (res.status >= 300) throw new Error(`fixture ${f.name} on ${t.name}: ${step.method} ${substitute(step.path, vars)} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
    }
  }
}

/** Runs one row on one target: its set-up (a failed step is the observation), then the compared request. */
export async function runRow(t: Target, row: Row, index: number, runTag: string, fixtureVars: Record<string, string>): Promise<Observation> {
  const vars: Record<string, string> = { ...t.vars, ...fixtureVars, ...rowNames(runTag, index, row.api) };
  try {
    for (const [i, step] of (row.setup ?? []).entries()) {
      const res = await send(t, step, vars);
      if (res.status >= 300 && !step.mayFail) {
        return { status: 0, fields: new Map([['setup', `step ${i + 1} (${step.method} ${step.path}) answered ${res.status}`]]) };
      }
      for (const [name, spec] of Object.entries(step.capture ?? {})) {
        const v = captureFrom(spec, res);
        if (v === undefined) return { status: 0, fields: new Map([['setup', `step ${i + 1}: nothing to capture as ${spec}`]]) };
        vars[name] = v;
      }
    }
    const res = await send(t, row.request, vars);
    return observe(row.api, row.request.method, res, t.normaliser, row.compare);
  } catch (err) {
    return { status: 0, fields: new Map([['error', (err as Error).message]]) };
  }
}

export function differences(row: string, ref: RefName, coffer: Observation, reference: Observation): Difference[] {
  const out: Difference[] = [];
  if (coffer.status !== reference.status) out.push({ row, ref, field: 'status', coffer: String(coffer.status), reference: String(reference.status) });
  const names = new Set([...coffer.fields.keys(), ...reference.fields.keys()]);
  for (const field of [...names].sort()) {
    const a = coffer.fields.get(field) ?? '(absent)';
    const b = reference.fields.get(field) ?? '(absent)';
    if (a !== b) out.push({ row, ref, field, coffer: a, reference: b });
  }
  return out;
}

/** Whether a value matches one of the patterns, where `*` stands for any text (`body:*last_modified`). */
function matches(patterns: string[], value: string): boolean {
  const literal = (part: string) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  return patterns.some((p) => new RegExp('^' + p.split('*').map(literal).join('.*') + '$', 's').test(value));
}

/** Whether a listed deviation covers this difference. */
export function covers(d: Deviation, diff: Difference): boolean {
  const refs = Array.isArray(d.ref) ? d.ref : [d.ref];
  if (!refs.includes(diff.ref)) return false;
  if (!matches(d.fields, diff.field)) return false;
  if (d.rows && !matches(d.rows, diff.row)) return false;
  if (d.cofferValue !== undefined && !new RegExp(`^(?:${d.cofferValue})$`, 's').test(diff.coffer)) return false;
  if (d.referenceValue !== undefined && !new RegExp(`^(?:${d.referenceValue})$`, 's').test(diff.reference)) return false;
  return true;
}

export interface Judged extends Difference {
  /** The deviation that lists it, or undefined: an unlisted difference fails the suite. */
  listedAs?: string;
  /** The second opinion's value of the same field, where it was asked. */
  secondOpinion?: string;
}

export function judge(diffs: Difference[], deviations: Deviation[]): Judged[] {
  return diffs.map((d) => {
    const dev = deviations.find((x) => covers(x, d));
    return dev ? { ...d, listedAs: dev.id } : { ...d };
  });
}

/** Runs `fn` over `items` with at most `limit` at a time, results in order. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** One failure line per difference, with the second opinion where there is one. */
export function describeDiff(d: Judged): string {
  const second = d.secondOpinion !== undefined ? `; second opinion: ${d.secondOpinion}` : '';
  return `${d.field}: Coffer ${d.coffer} | ${d.ref} ${d.reference}${second}`;
}
