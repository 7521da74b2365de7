// The browse service's bulk operations on real local backends (two accounts of one engine):
// paste within and across accounts, folders recursively, names taken in the target, move, and
// the throttled progress of a large delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowseService } from '../../src-shared/contract/browse.js';
import type { EventMap } from '../../src-shared/contract/events.js';
import { LocalBackend } from '../../src-main/backends/local.js';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import { createBrowseService } from '../../src-main/services/browse.js';
import { copyName, leafOf } from '../../src-main/services/browse-bulk.js';
import type { ConnectionRegistry } from '../../src-main/services/connections.js';
import { Engine } from '../../src-main/engine/index.js';
import { ALICE, BOB, startS3Server, type S3TestServer } from '../compat/server.js';
import { containerName } from '../backends/helpers.js';

let server: S3TestServer;
let backends: Record<string, ObjectBackend>;
let browse: BrowseService;
const progress: EventMap['operation.progress'][] = [];

const names = async (account: string, container: string, prefix = '') =>
  (await browse.listFolder({ account, container, prefix, delimiter: '' })).entries.map((e) => (e.kind === 'folder' ? e.prefix : e.name));

async function put(account: string, container: string, ...objects: string[]) {
  const engine = server.engine;
  const id = account === 'alice' ? ALICE.account : BOB.account;
  for (const name of objects) await engine.putObject(Engine.ref(id, container), name, `body of ${name}`, { contentType: 'text/plain' });
}

beforeAll(async () => {
  server = await startS3Server({ users: [ALICE, BOB] });
  backends = { alice: new LocalBackend(server.engine, ALICE.account), bob: new LocalBackend(server.engine, BOB.account) };
  // Only what the service asks of the registry: a backend per account, and a place to report health.
  const registry = { backend: (id: string) => backends[id]!, report: () => undefined } as unknown as ConnectionRegistry;
  browse = createBrowseService(registry, (event, payload) => {
    if (event === 'operation.progress') progress.push(payload as EventMap['operation.progress']);
  });
});

afterAll(async () => {
  await server.close();
});

describe('names for copies', () => {
  it('keeps the extension and the folder slash', () => {
    expect(leafOf('a/b/c.txt')).toBe('c.txt');
    expect(leafOf('a/b/')).toBe('b/');
    expect(copyName('report.pdf', 1)).toBe('report (copy).pdf');
    expect(copyName('report.pdf', 2)).toBe('report (copy 2).pdf');
    expect(copyName('.env', 1)).toBe('.env (copy)');
    expect(copyName('docs/', 1)).toBe('docs (copy)/');
  });
});

describe('paste', () => {
  it('copies objects and whole folders into another container, server-side', async () => {
    const a = containerName('src');
    const b = containerName('dst');
    await browse.createContainer({ account: 'alice', container: a });
    await browse.createContainer({ account: 'alice', container: b });
    await put('alice', a, 'top.txt', 'docs/one.md', 'docs/deep/two.md', 'other.txt');
    const r = await browse.paste({ from: { account: 'alice', container: a, names: ['top.txt'], prefixes: ['docs/'] }, to: { account: 'alice', container: b, prefix: 'in/' } });
    expect(r).toMatchObject({ status: 'done', objects: 3, errors: [] });
    expect(await names('alice', b)).toEqual(['in/docs/deep/two.md', 'in/docs/one.md', 'in/top.txt']);
    expect(await names('alice', a)).toHaveLength(4);
  });

  it('asks about names taken in the target and changes nothing; keepBoth, skip and replace each do what they say', async () => {
    const a = containerName('src');
    const b = containerName('dst');
    await browse.createContainer({ account: 'alice', container: a });
    await browse.createContainer({ account: 'alice', container: b });
    await put('alice', a, 'x.txt', 'y.txt');
    await put('alice', b, 'x.txt');
    const from = { account: 'alice', container: a, names: ['x.txt', 'y.txt'] };
    const to = { account: 'alice', container: b };
    expect(await browse.paste({ from, to })).toEqual({ status: 'conflicts', names: ['x.txt'] });
    expect(await names('alice', b)).toEqual(['x.txt']);

    expect(await browse.paste({ from, to, conflicts: 'skip' })).toMatchObject({ status: 'done', skipped: ['x.txt'], objects: 1 });
    expect(await browse.paste({ from, to, conflicts: 'keepBoth' })).toMatchObject({ status: 'done', pasted: [{ from: 'x.txt', to: 'x (copy).txt' }, { from: 'y.txt', to: 'y (copy).txt' }] });
    expect(await names('alice', b)).toEqual(['x (copy).txt', 'x.txt', 'y (copy).txt', 'y.txt']);
    await browse.paste({ from, to, conflicts: 'replace' });
    const head = await browse.head({ account: 'alice', container: b, name: 'x.txt' });
    expect(head.size).toBe('body of x.txt'.length);
    expect(await names('alice', b)).toHaveLength(4);
  });

  it('pasting into the folder it came from makes "(copy)" names, folders too; a folder never goes into itself', async () => {
    const a = containerName('same');
    await browse.createContainer({ account: 'alice', container: a });
    await put('alice', a, 'f/a.txt', 'f/sub/b.txt');
    const from = { account: 'alice', container: a, names: ['f/a.txt'], prefixes: ['f/sub/'] };
    const r = await browse.paste({ from, to: { account: 'alice', container: a, prefix: 'f/' } });
    expect(r).toMatchObject({ status: 'done', pasted: [{ to: 'f/a (copy).txt' }, { to: 'f/sub (copy)/' }] });
    await browse.paste({ from: { ...from, prefixes: [] }, to: { account: 'alice', container: a, prefix: 'f/' } });
    expect(await names('alice', a)).toEqual(['f/a (copy 2).txt', 'f/a (copy).txt', 'f/a.txt', 'f/sub (copy)/b.txt', 'f/sub/b.txt']);
    await expect(browse.paste({ from: { account: 'alice', container: a, prefixes: ['f/'] }, to: { account: 'alice', container: a, prefix: 'f/sub/' } })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('moves across accounts (streamed), folders included, leaving nothing behind', async () => {
    const a = containerName('mv');
    const b = containerName('mv');
    await browse.createContainer({ account: 'alice', container: a });
    await browse.createContainer({ account: 'bob', container: b });
    await put('alice', a, 'm.txt', 'tree/1.txt', 'tree/2/3.txt', 'stay.txt');
    const r = await browse.paste({ from: { account: 'alice', container: a, names: ['m.txt'], prefixes: ['tree/'] }, to: { account: 'bob', container: b, prefix: '' }, mode: 'move' });
    expect(r).toMatchObject({ status: 'done', objects: 3, errors: [] });
    expect(await names('bob', b)).toEqual(['m.txt', 'tree/1.txt', 'tree/2/3.txt']);
    expect(await names('alice', a)).toEqual(['stay.txt']);
    const details = await browse.head({ account: 'bob', container: b, name: 'tree/2/3.txt' });
    expect(details.contentType).toBe('text/plain');
  });
});

describe('delete with progress', () => {
  it('reports done and total under the operation id, ending with a finished report of the exact count', async () => {
    const c = containerName('del');
    await browse.createContainer({ account: 'alice', container: c });
    const many = Array.from({ length: 2001 }, (_, i) => `big/${String(i).padStart(5, '0')}`);
    await put('alice', c, ...many, 'loose.txt');
    progress.length = 0;
    const r = await browse.delete({ account: 'alice', container: c, names: ['loose.txt'], prefixes: ['big/'], operationId: 'op-1' });
    expect(r.deleted).toHaveLength(2002);
    const mine = progress.filter((p) => p.id === 'op-1');
    expect(mine[0]).toMatchObject({ kind: 'delete', done: 0, total: null, finished: false });
    expect(mine.at(-1)).toEqual({ id: 'op-1', kind: 'delete', done: 2002, total: 2002, finished: true });
    expect(mine.filter((p) => p.finished)).toHaveLength(1);
    // Reports only grow, and come per batch at most (1 + 3 listing pages), never per object.
    for (let i = 1; i < mine.length; i++) expect(mine[i]!.done).toBeGreaterThanOrEqual(mine[i - 1]!.done);
    expect(mine.length).toBeLessThanOrEqual(1 + 4 + 1);
    expect(await names('alice', c)).toEqual([]);
  });

  it('a list of names has its total from the start; no id, no events', async () => {
    const c = containerName('del');
    await browse.createContainer({ account: 'alice', container: c });
    await put('alice', c, 'a', 'b');
    progress.length = 0;
    await browse.delete({ account: 'alice', container: c, names: ['a'], operationId: 'op-2' });
    expect(progress[0]).toMatchObject({ id: 'op-2', total: 1 });
    progress.length = 0;
    await browse.delete({ account: 'alice', container: c, names: ['b'] });
    expect(progress).toEqual([]);
  });
});
