import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import type { ListParams } from '../../src-main/engine/ops/list-objects.js';
import { codeOf, openStore, type TestStore } from './helpers.js';

let s: TestStore;
const ref = () => Engine.ref(s.account, 'l');
const NAMES = ['a', 'a/', 'a/b', 'a/b/c', 'a/d', 'a-b', 'b', 'cat.png', 'caterpillar.png', 'catchemall/x.jpg', 'photos/2024/x.jpg', 'photos/y.jpg', 'é/1', 'z'];
const list = (p: ListParams) => s.engine.listObjects(ref(), p).entries.map((e) => (e.kind === 'object' ? e.name : `[${e.prefix}]`));

beforeAll(async () => {
  s = await openStore();
  await s.engine.createContainer(s.account, 'l');
  await Promise.all(NAMES.map((n) => s.engine.putObject(ref(), n, n)));
});
afterAll(() => s.close());

describe('object listing', () => {
  it('lists everything in UTF-8 byte order', () => {
    expect(list({})).toEqual([...NAMES].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
  });

  it('filters by prefix (the seed example: cat matches cat.png, caterpillar.png, catchemall/x.jpg)', () => {
    expect(list({ prefix: 'cat' })).toEqual(['cat.png', 'catchemall/x.jpg', 'caterpillar.png']);
  });

  it('rolls names up into common prefixes with a delimiter', () => {
    expect(list({ delimiter: '/' })).toEqual(['a', 'a-b', '[a/]', 'b', 'cat.png', '[catchemall/]', 'caterpillar.png', '[photos/]', 'z', '[é/]']);
    expect(list({ prefix: 'a/', delimiter: '/' })).toEqual(['a/', 'a/b', '[a/b/]', 'a/d']);
    expect(list({ prefix: 'photos/', delimiter: '/' })).toEqual(['[photos/2024/]', 'photos/y.jpg']);
    expect(list({ delimiter: '-' })).toEqual(['a', '[a-]', 'a/', 'a/b', 'a/b/c', 'a/d', 'b', 'cat.png', 'catchemall/x.jpg', 'caterpillar.png', 'photos/2024/x.jpg', 'photos/y.jpg', 'z', 'é/1']);
    expect(list({ delimiter: 'at' })).toEqual(['a', 'a-b', 'a/', 'a/b', 'a/b/c', 'a/d', 'b', '[cat]', 'photos/2024/x.jpg', 'photos/y.jpg', 'z', 'é/1']);
  });

  it('lists the direct children of a path, without the folder marker object itself', () => {
    expect(list({ path: 'a' })).toEqual(['a/b', '[a/b/]', 'a/d']);
    expect(list({ path: 'a/' })).toEqual(['a/b', '[a/b/]', 'a/d']);
    expect(list({ path: '' })).toEqual(list({ delimiter: '/' }));
  });

  it('pages with marker, end marker and limit, reporting truncation and the next marker', () => {
    const page = s.engine.listObjects(ref(), { delimiter: '/', limit: 3 });
    expect(page.truncated).toBe(true);
    expect(page.nextMarker).toBe('a/');
    expect(list({ delimiter: '/', marker: 'a/', limit: 2 })).toEqual(['b', 'cat.png']);
    expect(list({ marker: 'b', endMarker: 'caterpillar.png' })).toEqual(['cat.png', 'catchemall/x.jpg']);
    const last = s.engine.listObjects(ref(), { marker: 'photos/y.jpg' });
    expect(last.entries.length).toBe(2);
    expect(last.truncated).toBe(false);
    expect(s.engine.listObjects(ref(), { limit: 0 })).toEqual({ entries: [], truncated: false });
  });

  it('walks in reverse, with marker and end marker keeping their after/before meaning', () => {
    expect(list({ reverse: true, limit: 3 })).toEqual(['é/1', 'z', 'photos/y.jpg']);
    expect(list({ reverse: true, delimiter: '/', limit: 4 })).toEqual(['[é/]', 'z', '[photos/]', 'caterpillar.png']);
    expect(list({ reverse: true, marker: 'b', endMarker: 'a-b' })).toEqual(['a/d', 'a/b/c', 'a/b', 'a/']);
  });

  it('rejects the forbidden parameter combinations', async () => {
    for (const p of [{ delimiter: '/', path: 'a' }, { delimiter: '/', allowUnordered: true }, { prefix: 'a', path: 'a' }, { path: 'a', allowUnordered: true }]) {
      expect(await codeOf(() => s.engine.listObjects(ref(), p))).toBe('InvalidArgument');
    }
    expect(list({ allowUnordered: true, prefix: 'a/' })).toEqual(['a/', 'a/b', 'a/b/c', 'a/d']);
  });

  it('reports NoSuchContainer for a missing container', async () => {
    expect(await codeOf(() => s.engine.listObjects(Engine.ref(s.account, 'missing')))).toBe('NoSuchContainer');
  });
});
