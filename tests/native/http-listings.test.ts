// Raw HTTP tests of the native (Swift-style) API: object listings.
import { beforeAll, describe, expect, it } from 'vitest';
import { md5, ref, ISO_MILLIS, xml, expectBaseHeaders, useNativeServer } from './http-kit.js';
import { call, type TestServer } from './server.js';

let s!: TestServer;
const { fresh, mkContainer, put } = useNativeServer((server) => (s = server));

describe('object listings (N4; seed 2.4, 2.5, 4.1.1, 4.1.2; §5)', () => {
  const c = 'listing';
  const names = ['cat.png', 'caterpillar.png', 'catchemall/x.jpg', 'dog.png', 'photos/', 'photos/2024/a.jpg', 'photos/2024/b.jpg', 'photos/c.jpg', 'zebra/'];
  beforeAll(async () => {
    await mkContainer(c);
    for (const n of names) await put(c, n, `content of ${n}`, { 'Content-Type': n.endsWith('/') ? 'application/directory' : 'image/png' });
  });

  type Row = { name?: string; subdir?: string; hash?: string; bytes?: number; content_type?: string; last_modified?: string };
  const list = async (q: string): Promise<Row[]> => {
    const r = await call(s, 'GET', `/${c}?format=json${q}`);
    expect(r.status, `${q}: ${r.text}`).toBe(200);
    return JSON.parse(r.text) as Row[];
  };
  const keys = (rows: Row[]) => rows.map((r) => r.name ?? `[${r.subdir}]`);

  it('JSON entries (2.4): name, 32-hex hash, bytes, content_type, last_modified with ms and Z — in byte order', async () => {
    const r = await call(s, 'GET', `/${c}?format=json`);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const rows = JSON.parse(r.text) as Row[];
    expect(rows.map((e) => e.name)).toEqual([...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    for (const e of rows) {
      expect(Object.keys(e).sort()).toEqual(['bytes', 'content_type', 'hash', 'last_modified', 'name']);
      expect(e.hash).toBe(md5(`content of ${e.name}`));
      expect(e.hash).toMatch(/^[0-9a-f]{32}$/);
      expect(e.bytes).toBe(Buffer.byteLength(`content of ${e.name}`));
      expect(e.content_type).toBe(e.name!.endsWith('/') ? 'application/directory' : 'image/png');
      expect(e.last_modified).toMatch(ISO_MILLIS);
      expect(Math.abs(Date.parse(e.last_modified!) - Date.now())).toBeLessThan(120_000);
    }
  });

  it("the seed's examples: prefix `cat` matches cat.png, caterpillar.png, catchemall/x.jpg; delimiter `/` rolls up", async () => {
    expect(keys(await list('&prefix=cat'))).toEqual(['cat.png', 'catchemall/x.jpg', 'caterpillar.png']);
    expect(keys(await list('&delimiter=/'))).toEqual(['cat.png', '[catchemall/]', 'caterpillar.png', 'dog.png', '[photos/]', '[zebra/]']);
    expect(keys(await list('&prefix=cat&delimiter=/'))).toEqual(['cat.png', '[catchemall/]', 'caterpillar.png']);
    expect(keys(await list('&prefix=photos/&delimiter=/'))).toEqual(['photos/', '[photos/2024/]', 'photos/c.jpg']);
    const subdir = (await list('&delimiter=/')).find((e) => e.subdir === 'photos/');
    expect(subdir).toEqual({ subdir: 'photos/' });
  });

  it('path lists direct children (with or without a trailing /), omitting the object named exactly path/', async () => {
    expect(keys(await list('&path=photos'))).toEqual(['[photos/2024/]', 'photos/c.jpg']);
    expect(keys(await list('&path=photos/'))).toEqual(['[photos/2024/]', 'photos/c.jpg']);
    expect(keys(await list('&path=photos/2024'))).toEqual(['photos/2024/a.jpg', 'photos/2024/b.jpg']);
    expect(keys(await list('&path=nothing'))).toEqual([]);
  });

  it('marker and end_marker are exclusive; limit caps; reverse reverses', async () => {
    expect(keys(await list('&marker=dog.png'))).toEqual(['photos/', 'photos/2024/a.jpg', 'photos/2024/b.jpg', 'photos/c.jpg', 'zebra/']);
    expect(keys(await list('&end_marker=caterpillar.png'))).toEqual(['cat.png', 'catchemall/x.jpg']);
    expect(keys(await list('&marker=cat.png&end_marker=dog.png'))).toEqual(['catchemall/x.jpg', 'caterpillar.png']);
    expect(keys(await list('&limit=2'))).toEqual(['cat.png', 'catchemall/x.jpg']);
    expect(keys(await list('&limit=0'))).toEqual([]);
    expect(keys(await list('&marker=zebra/'))).toEqual([]);
    expect(keys(await list('&delimiter=/&marker=catchemall/'))).toEqual(['caterpillar.png', 'dog.png', '[photos/]', '[zebra/]']);
    expect(keys(await list('&reverse=true&limit=3'))).toEqual(['zebra/', 'photos/c.jpg', 'photos/2024/b.jpg']);
    expect(keys(await list('&prefix=cat&reverse=on'))).toEqual(['caterpillar.png', 'catchemall/x.jpg', 'cat.png']);
    // In reverse order marker / end_marker keep their "after" / "before" meaning in that order.
    expect(keys(await list('&reverse=true&marker=dog.png'))).toEqual(['caterpillar.png', 'catchemall/x.jpg', 'cat.png']);
    expect(keys(await list('&reverse=true&end_marker=photos/c.jpg'))).toEqual(['zebra/']);
    expect(keys(await list('&reverse=true&delimiter=/'))).toEqual(['[zebra/]', '[photos/]', 'dog.png', 'caterpillar.png', '[catchemall/]', 'cat.png']);
  });

  it('pages with limit + marker (last entry of the previous page) end with an empty page and no short page early', async () => {
    for (const q of ['', '&delimiter=/']) {
      const seen: string[] = [];
      let marker = '';
      for (let i = 0; i < 20; i++) {
        const page = await list(`&limit=2${q}${marker ? `&marker=${encodeURIComponent(marker)}` : ''}`);
        if (page.length === 0) break;
        if (seen.length + page.length < (await list(q)).length) expect(page).toHaveLength(2);
        seen.push(...keys(page));
        const last = page.at(-1)!;
        marker = last.name ?? last.subdir!;
      }
      expect(seen).toEqual(keys(await list(q)));
    }
  });

  it('XML: declaration, <container name>, <object> children, <subdir name="…"><name>…</name></subdir>', async () => {
    const r = await call(s, 'GET', `/${c}?format=xml&prefix=cat&delimiter=/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(r.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(r.text).toContain('<subdir name="catchemall/"><name>catchemall/</name></subdir>');
    const doc = xml.parse(r.text) as { container: { '@_name': string; object: Record<string, string>[]; subdir: Record<string, string>[] } };
    expect(doc.container['@_name']).toBe(c);
    expect(doc.container.object.map((o) => o.name)).toEqual(['cat.png', 'caterpillar.png']);
    const o = doc.container.object[0]!;
    expect(o.hash).toBe(md5('content of cat.png'));
    expect(o.bytes).toBe(String(Buffer.byteLength('content of cat.png')));
    expect(o.content_type).toBe('image/png');
    expect(o.last_modified).toMatch(ISO_MILLIS);
    expect(doc.container.subdir).toEqual([{ '@_name': 'catchemall/', name: 'catchemall/' }]);
    // Interleaved in name order.
    expect(r.text.indexOf('cat.png')).toBeLessThan(r.text.indexOf('catchemall/'));
    expect(r.text.indexOf('catchemall/')).toBeLessThan(r.text.indexOf('caterpillar.png'));
  });

  it('JSON is the default (seed N1/N4, 4.1.1); plain text with format=plain or Accept: text/plain; Accept picks JSON/XML', async () => {
    const r = await call(s, 'GET', `/${c}?format=plain&delimiter=/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.text).toBe('cat.png\ncatchemall/\ncaterpillar.png\ndog.png\nphotos/\nzebra/\n');
    for (const headers of [{}, { Accept: '*/*' }] as Record<string, string>[]) {
      const d = await call(s, 'GET', `/${c}?prefix=dog`, { headers });
      expect([d.status, d.headers.get('content-type')], JSON.stringify(headers)).toEqual([200, 'application/json; charset=utf-8']);
      expect(d.headers.get('vary')).toBe('Accept');
      expect((JSON.parse(d.text) as Row[]).map((e) => e.name)).toEqual(['dog.png']);
      const a = await call(s, 'GET', '?prefix=nomatch', { headers });
      expect([a.status, a.headers.get('content-type'), a.text]).toEqual([200, 'application/json; charset=utf-8', '[]']);
    }
    const t = await call(s, 'GET', `/${c}?prefix=dog`, { headers: { Accept: 'text/plain' } });
    expect([t.headers.get('content-type'), t.text]).toEqual(['text/plain; charset=utf-8', 'dog.png\n']);
    const j = await call(s, 'GET', `/${c}?prefix=dog`, { headers: { Accept: 'application/json' } });
    expect(j.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((JSON.parse(j.text) as Row[]).map((e) => e.name)).toEqual(['dog.png']);
    const x = await call(s, 'GET', `/${c}?prefix=dog`, { headers: { Accept: 'application/xml' } });
    expect(x.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xq = await call(s, 'GET', `/${c}?prefix=dog&format=json`, { headers: { Accept: 'application/xml' } });
    expect(xq.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // format= decides alone: nothing for a cache to vary on.
    expect(xq.headers.get('vary')).toBeNull();
  });

  it('Accept as Swift reads it: text/xml answered as text/xml; quality and order decide; none acceptable 406, unreadable 400', async () => {
    const ask = async (accept: string, method = 'GET', path = `/${c}?prefix=dog`) => {
      const r = await call(s, method, path, { headers: { Accept: accept } });
      return [r.status, r.headers.get('content-type')];
    };
    // It had been application/xml whatever XML type was asked for; Swift says the type asked for.
    const x = await call(s, 'GET', `/${c}?prefix=dog`, { headers: { Accept: 'text/xml' } });
    expect([x.status, x.headers.get('content-type'), x.headers.get('vary')]).toEqual([200, 'text/xml; charset=utf-8', 'Accept']);
    // Swift's proxy says Accept-Ranges on every account and container read (it was left out).
    for (const [method, path] of [['GET', `/${c}`], ['HEAD', `/${c}`], ['GET', ''], ['HEAD', '']]) {
      expect((await call(s, method!, path!)).headers.get('accept-ranges'), `${method} ${path}`).toBe('bytes');
    }
    expect(x.text).toContain('<container name="');
    expect(await ask('text/xml', 'HEAD')).toEqual([204, 'text/xml; charset=utf-8']);
    expect(await ask('text/xml', 'GET', '?prefix=nomatch')).toEqual([200, 'text/xml; charset=utf-8']);
    expect(await ask('text/plain, application/json')).toEqual([200, 'text/plain; charset=utf-8']);
    expect(await ask('application/json;q=0.5, text/xml')).toEqual([200, 'text/xml; charset=utf-8']);
    expect(await ask('text/*')).toEqual([200, 'text/plain; charset=utf-8']);
    // A browser's Accept: XML at 0.9 beats */* at 0.8.
    expect(await ask('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toEqual([200, 'application/xml; charset=utf-8']);
    expect((await ask('text/html'))[0]).toBe(406);
    expect((await ask('image/png', 'HEAD'))[0]).toBe(406);
    const bad = await call(s, 'GET', `/${c}`, { headers: { Accept: 'text/xml;q=x' } });
    expect([bad.status, bad.text]).toEqual([400, 'Invalid Accept header']);
    expect(await ask('image/png', 'GET', `/${c}?prefix=dog&format=xml`)).toEqual([200, 'application/xml; charset=utf-8']);
  });

  it('format is read in any case, and a value Swift does not know is plain text, not an error (listing_formats)', async () => {
    const upper = await call(s, 'GET', `/${c}?prefix=dog&format=JSON`);
    expect([upper.status, upper.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    for (const f of ['txt', 'yaml']) {
      const r = await call(s, 'GET', `/${c}?prefix=dog&format=${f}`);
      expect([r.status, r.headers.get('content-type'), r.text], f).toEqual([200, 'text/plain; charset=utf-8', 'dog.png\n']);
    }
    const account = await call(s, 'GET', '?format=yaml');
    expect([account.status, account.headers.get('content-type')]).toEqual([200, 'text/plain; charset=utf-8']);
    // A HEAD says the type its GET would have.
    for (const [q, type] of [['?format=json', 'application/json'], ['?format=xml', 'application/xml'], ['?format=plain', 'text/plain'], ['', 'application/json']] as const) {
      for (const path of [`/${c}${q}`, q]) expect((await call(s, 'HEAD', path)).headers.get('content-type'), `HEAD ${path}`).toBe(`${type}; charset=utf-8`);
    }
  });

  it('an empty result: plain 204 with no body, JSON [] (200), XML a childless <container> (200)', async () => {
    const e = fresh('empty');
    await mkContainer(e);
    for (const [path, label] of [
      [`/${e}`, 'empty container'],
      [`/${c}?prefix=nomatch`, 'no match'],
    ] as const) {
      const sep = path.includes('?') ? '&' : '?';
      const plain = await call(s, 'GET', `${path}${sep}format=plain`);
      expect(plain.status, label).toBe(204);
      expect(plain.body.length, label).toBe(0);
      const json = await call(s, 'GET', `${path}${sep}format=json`);
      expect(json.status, label).toBe(200);
      expect(JSON.parse(json.text), label).toEqual([]);
      const x = await call(s, 'GET', `${path}${sep}format=xml`);
      expect(x.status, label).toBe(200);
      expect(x.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
      expect(x.text).not.toMatch(/<object>|<subdir/);
      const doc = xml.parse(x.text) as { container: unknown };
      expect(doc.container).toBeDefined();
    }
  });

  it('limit > 10000 is 412 "Maximum limit is 10000"; 10000 is fine; a limit not all digits is ignored, as Swift', async () => {
    const r = await call(s, 'GET', `/${c}?format=json&limit=10001`);
    expect(r.status).toBe(412);
    expect(r.text).toContain('Maximum limit is 10000');
    expect((await call(s, 'GET', `/${c}?format=json&limit=10000`)).status).toBe(200);
    for (const junk of ['ten', '-1', '5000.0']) expect((await call(s, 'GET', `/${c}?format=json&limit=${junk}`)).status, junk).toBe(200);
  });

  it('forbidden parameter combinations are 400 (seed 4.1.2), for every parameter given, empty or false', async () => {
    for (const q of [
      'delimiter=/&path=photos',
      'delimiter=/&allow_unordered=true',
      'prefix=p&path=photos',
      'path=photos&allow_unordered=true',
      'delimiter=&path=photos',
      'prefix=&path=photos',
      'delimiter=/&allow_unordered=false',
      'path=photos&allow_unordered=false',
      'delimiter=&allow_unordered=false',
    ]) {
      const r = await call(s, 'GET', `/${c}?format=json&${q}`);
      expect(r.status, q).toBe(400);
      expectBaseHeaders(r, q);
    }
    expect((await call(s, 'GET', `/${c}?format=json&allow_unordered=false&prefix=p`)).status).toBe(200);
    // allow_unordered alone is fine.
    const u = await call(s, 'GET', `/${c}?format=json&allow_unordered=true`);
    expect(u.status).toBe(200);
    expect((JSON.parse(u.text) as Row[]).map((e) => e.name).sort()).toEqual([...names].sort());
  });

  it('names with spaces, unicode and %2F are listed decoded, and markers take such names', async () => {
    const n = fresh('uni');
    await mkContainer(n);
    const odd = ['a b.txt', 'ünï/çødé.txt', 'x%y', 'q?r#s'];
    for (const name of odd) await put(n, name, name);
    const rows = JSON.parse((await call(s, 'GET', `/${n}?format=json`)).text) as Row[];
    expect(rows.map((r) => r.name)).toEqual([...odd].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    const after = JSON.parse((await call(s, 'GET', `/${n}?format=json&marker=${encodeURIComponent('q?r#s')}`)).text) as Row[];
    expect(after.map((r) => r.name)).toEqual(['x%y', 'ünï/çødé.txt']);
    const byPrefix = JSON.parse((await call(s, 'GET', `/${n}?format=json&prefix=${encodeURIComponent('ünï/')}`)).text) as Row[];
    expect(byPrefix.map((r) => r.name)).toEqual(['ünï/çødé.txt']);
    // XML escapes what it must and stays parseable.
    const special = ['a&b<c>.txt', 'quote"\'.txt'];
    for (const name of special) await put(n, name, name);
    const x = await call(s, 'GET', `/${n}?format=xml&prefix=${encodeURIComponent('a&')}`);
    expect(x.text).toContain('a&amp;b&lt;c&gt;.txt');
    const all = xml.parse((await call(s, 'GET', `/${n}?format=xml`)).text) as { container: { object: { name: string }[] } };
    expect(all.container.object.map((o) => o.name)).toEqual(expect.arrayContaining([...special, ...odd]));
    // %2F in the URL is part of the name.
    expect((await call(s, 'PUT', `/${n}/dir%2Fslash`, { body: 'encoded slash' })).status).toBe(201);
    expect(s.engine.headObject(ref(n), 'dir/slash').size).toBe(13);
    const got = await call(s, 'GET', `/${n}/dir/slash`);
    expect(got.text).toBe('encoded slash');
  });
});
