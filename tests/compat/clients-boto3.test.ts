// Real client: boto3. One script run (tests/compat/fixtures/boto3_scenario.py) observes; the
// steps here assert (see clients-kit.ts).
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { app, baseEnv, big, bigFile, BOTO3_SCRIPT, PYTHON, ref, root, run, scenario, serverLogTest, show, url, useClientsServer } from './clients-kit.js';
import { bucketExists, engineNames, nativeHead } from './clients-views.js';

useClientsServer();

type Outcome = { ok: true; value: unknown } | { ok: false; error: string; trace?: string };

describe('boto3', () => {
  const B = 'boto3-bucket';
  const MANY_BUCKET = 'boto3-many';
  // Awkward names: with EncodingType=url (boto3 sends it and decodes the answer) they must round-trip.
  const SUFFIXES = ['plain', 'a+b', '100%', 'sp ace', 'pct%41', 'ünï', 'amp&er', "quo'te", 'lt<gt>', 'tab\tkey', 'x=y;z', 'trail '];
  const MANY = Array.from({ length: 1200 }, (_, i) => `many/${String(i).padStart(4, '0')} ${SUFFIXES[i % SUFFIXES.length]}`);
  const s = scenario('boto3', 'boto3');
  const work = () => join(root, 'out-boto3');
  let report: Record<string, Outcome> = {};
  /** The value a script step observed; throws with the script's error when the step failed. */
  const value = <T>(name: string): T => {
    const o = report[name];
    expect(o, `script step ${name} ran`).toBeDefined();
    if (!o!.ok) throw new Error(`boto3 step ${name} failed: ${o!.error}\n${o!.trace ?? ''}`);
    return o!.value as T;
  };

  s.step('the script runs', async () => {
    // 1,200 boto3 PUTs would cost more CPU than everything else here: the keys go in through the engine.
    await app.engine.createContainer(s.user.account, MANY_BUCKET);
    for (const k of [...MANY, 'top+level.txt', 'top %.txt', 'other dir/x']) await app.engine.putObject(ref(MANY_BUCKET), k, k);
    mkdirSync(work(), { recursive: true });
    writeFileSync(join(work(), 'many.json'), JSON.stringify(MANY));
    cpSync(bigFile, join(work(), 'big.bin'));
    const env = baseEnv(s.user, { AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: join(s.user.home, 'no-aws-config'), AWS_SHARED_CREDENTIALS_FILE: join(s.user.home, 'no-aws-credentials') });
    const r = await run(PYTHON, [BOTO3_SCRIPT, url, s.user.accessKey, s.user.secretKey, B, MANY_BUCKET, work()], env, { timeoutMs: 50_000 });
    expect(r.code, show('boto3_scenario.py', r)).toBe(0);
    report = JSON.parse(r.stdout) as Record<string, Outcome>;
    if (process.env.COFFER_CLIENTS_TIMINGS) console.log(Object.entries(report).map(([k, v]) => `${k}: ${(v as { seconds?: number }).seconds ?? ''}s`).join('\n'));
  });

  s.step('create_bucket', async () => {
    const v = value<{ status: number; buckets: string[] }>('create_bucket');
    expect(v.status).toBe(200);
    expect(v.buckets).toContain(B);
    expect(bucketExists(B)).toBe(true);
  });

  s.step('put_object with Metadata; head_object and get_object return it; native HEAD sees it', async () => {
    const v = value<Record<string, unknown>>('put_get_metadata');
    expect(v.putEtag).toBe(`"${v.md5}"`);
    expect(v).toMatchObject({ headContentType: 'text/x-boto', headLength: 17, getBodyEqual: true });
    expect(v.headMetadata).toEqual({ color: 'blue', 'mixed-case': 'Value 1' });
    expect(v.getMetadata).toEqual({ color: 'blue', 'mixed-case': 'Value 1' });
    const native = await nativeHead(s.user, B, 'meta/hello world+.txt');
    expect(native.status).toBe(200);
    expect(native.headers.get('x-object-meta-color')).toBe('blue');
    expect(native.headers.get('x-object-meta-mixed-case')).toBe('Value 1');
  });

  s.step('1,200 awkward keys: the list_objects_v2 paginator (encoding-type=url) returns each once, in order', async () => {
    const v = value<{ pages: number; count: number; missing: string[]; unexpected: string[]; ordered: boolean }>('paginate_many');
    expect(v).toEqual({ pages: 3, count: 1200, missing: [], unexpected: [], ordered: true });
  });

  s.step('list_objects_v2 with a delimiter, one key per page', async () => {
    expect(value('paginate_delimiter')).toEqual({ prefixes: ['many/', 'other dir/'], keys: ['top %.txt', 'top+level.txt'] });
  });

  s.step('list_objects (v1) paginator with markers', async () => {
    expect(value('list_objects_v1_marker')).toEqual({ count: 1200, missing: [] });
  });

  s.step('list_objects (v1) gives Prefix, Marker and Delimiter back as sent (AWS leaves a v1 Prefix unencoded)', async () => {
    expect(value('list_objects_v1_prefix_echo')).toEqual({ prefix: 'top %', marker: 'top %', delimiter: '+', keys: ['top %.txt'] });
  });

  s.step('upload_file / download_file with a multipart TransferConfig', async () => {
    const v = value<{ etag: string; length: number; same: boolean }>('multipart_transfer');
    expect(v.etag).toMatch(/^"[0-9a-f]{32}-4"$/);
    expect(v).toMatchObject({ length: big.length, same: true });
  });

  s.step('generate_presigned_url GET works through urllib; a tampered signature is refused', async () => {
    expect(value('presigned_get')).toEqual({ status: 200, body: 'hello from boto3\n', tampered: 403 });
  });

  s.step('delete_objects removes all 1,200 keys, each reported under its own name', async () => {
    const v = value<{ deleted: number; errors: unknown[]; left: number }>('delete_many');
    expect(v.errors, `DeleteObjects problems: ${JSON.stringify(v.errors)}`).toEqual([]);
    expect(v.left).toBe(0);
    expect(v.deleted).toBe(1200);
    expect(engineNames(MANY_BUCKET, 'many/')).toEqual([]);
  });

  s.step('versioning and list_object_versions', async () => {
    const v = value<{
      status: string;
      v1: string;
      v2: string;
      markerFlag: boolean;
      markerVersion: string;
      versions: { Key: string; VersionId: string; IsLatest: boolean }[];
      deleteMarkers: { Key: string; VersionId: string; IsLatest: boolean }[];
      oldBody: string;
    }>('versioning');
    expect(v.status).toBe('Enabled');
    expect(v.markerFlag).toBe(true);
    expect(v.versions).toEqual([
      { Key: 'ver/doc+1.txt', VersionId: v.v2, IsLatest: false },
      { Key: 'ver/doc+1.txt', VersionId: v.v1, IsLatest: false },
    ]);
    expect(v.deleteMarkers).toEqual([{ Key: 'ver/doc+1.txt', VersionId: v.markerVersion, IsLatest: true }]);
    expect(v.oldBody).toBe('one');
  });
});

serverLogTest();
