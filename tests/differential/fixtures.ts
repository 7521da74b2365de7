// Shared fixtures: filled once per target before the rows run, then only read (`{f:NAME}`).
// Rows that change anything use their own containers and buckets (`{c}`, `{b}`).
import type { Fixture } from './runner.js';
import type { Req } from './types.js';

/** Names of the listing fixture: prefixes, nesting, a UTF-8 name, names that sort around the delimiter. */
export const LISTING_NAMES = ['a', 'b/c', 'b/d', 'b/e/f', 'b0', 'cat.png', 'catchemall/x.jpg', 'caterpillar.png', 'z/', 'z/y', 'é/ü.txt'];

const enc = (name: string) => name.split('/').map(encodeURIComponent).join('/');

const nativePut = (name: string, body: string, headers: Record<string, string> = {}): Req => ({
  method: 'PUT',
  path: `/{c}/${enc(name)}`,
  body,
  headers: { 'Content-Type': 'text/plain', ...headers },
});
const s3Put = (name: string, body: string, headers: Record<string, string> = {}): Req => ({
  method: 'PUT',
  path: `/{b}/${enc(name)}`,
  body,
  headers: { 'Content-Type': 'text/plain', ...headers },
});

export const FIXTURES: Fixture[] = [
  { name: 'listing', api: 'native', steps: [{ method: 'PUT', path: '/{c}' }, ...LISTING_NAMES.map((n) => nativePut(n, `${n}\n`))] },
  {
    name: 'objects',
    api: 'native',
    steps: [
      { method: 'PUT', path: '/{c}', headers: { 'X-Container-Meta-Color': 'blue' } },
      nativePut('obj', 'The quick brown fox jumps over the lazy dog\n', { 'X-Object-Meta-Color': 'red', 'X-Object-Meta-Shape': 'round' }),
      nativePut('empty', ''),
      { method: 'PUT', path: '/{c}/data.bin', body: { size: 10_000, seed: 'data.bin' }, headers: { 'Content-Type': 'application/octet-stream' } },
      { method: 'PUT', path: '/{c}/typed.json', body: '{"a":1}' },
      nativePut('dir/name with spaces', 'spaces\n'),
    ],
  },
  { name: 'empty', api: 'native', steps: [{ method: 'PUT', path: '/{c}' }] },
  { name: 'listing', api: 's3', steps: [{ method: 'PUT', path: '/{b}' }, ...LISTING_NAMES.map((n) => s3Put(n, `${n}\n`))] },
  {
    name: 'objects',
    api: 's3',
    steps: [
      { method: 'PUT', path: '/{b}' },
      s3Put('obj', 'The quick brown fox jumps over the lazy dog\n', { 'x-amz-meta-color': 'red', 'x-amz-meta-shape': 'round' }),
      s3Put('empty', ''),
      { method: 'PUT', path: '/{b}/data.bin', body: { size: 10_000, seed: 'data.bin' }, headers: { 'Content-Type': 'application/octet-stream' } },
      s3Put('dir/name with spaces', 'spaces\n'),
    ],
  },
  { name: 'empty', api: 's3', steps: [{ method: 'PUT', path: '/{b}' }] },
];
