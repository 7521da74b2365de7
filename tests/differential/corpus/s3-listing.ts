// S3 API: ListObjects (v1), ListObjectsV2, ListObjectVersions and ListMultipartUploads over the
// listing fixture (fixtures.ts: a, b/c, b/d, b/e/f, b0, cat.png, catchemall/x.jpg,
// caterpillar.png, z/, z/y, é/ü.txt), each parameter and their combinations.
import type { Row } from '../types.js';
import { GET, OWN_B, POST, s } from './helpers.js';

/** Parameters both versions take, by name; each is a v1 row and a v2 row. */
const COMMON: [name: string, query: string][] = [
  ['none', ''],
  ['prefix', 'prefix=b/'],
  ['prefix-cat', 'prefix=cat'],
  ['prefix-none', 'prefix=nomatch'],
  ['prefix-utf8', 'prefix=%C3%A9'],
  ['prefix-empty', 'prefix='],
  ['delimiter', 'delimiter=%2F'],
  ['delimiter-dot', 'delimiter=.'],
  ['delimiter-multichar', 'delimiter=ca'],
  ['delimiter-empty', 'delimiter='],
  ['prefix-delimiter', 'prefix=b%2F&delimiter=%2F'],
  ['prefix-delimiter-deep', 'prefix=b%2Fe%2F&delimiter=%2F'],
  ['prefix-no-slash-delimiter', 'prefix=b&delimiter=%2F'],
  ['max-keys-0', 'max-keys=0'],
  ['max-keys-1', 'max-keys=1'],
  ['max-keys-2-delimiter', 'max-keys=2&delimiter=%2F'],
  ['max-keys-1000', 'max-keys=1000'],
  ['max-keys-1001', 'max-keys=1001'],
  ['max-keys-negative', 'max-keys=-1'],
  ['max-keys-junk', 'max-keys=abc'],
  ['max-keys-empty', 'max-keys='],
  ['encoding-url', 'encoding-type=url'],
  ['encoding-url-delimiter', 'encoding-type=url&delimiter=%2F'],
  ['encoding-url-prefix', 'encoding-type=url&prefix=%C3%A9'],
  ['encoding-bogus', 'encoding-type=base64'],
  ['unknown-parameter', 'colour=blue'],
];

const V1_ONLY: [name: string, query: string][] = [
  ['marker', 'marker=b%2Fd'],
  ['marker-past-end', 'marker=zzz'],
  ['marker-empty', 'marker='],
  ['marker-delimiter', 'marker=b%2F&delimiter=%2F'],
  ['marker-in-prefix-delimiter', 'marker=b%2Fc&delimiter=%2F'],
  ['marker-max-keys', 'marker=a&max-keys=2'],
];

const V2_ONLY: [name: string, query: string][] = [
  ['start-after', 'start-after=b%2Fd'],
  ['start-after-past-end', 'start-after=zzz'],
  ['start-after-delimiter', 'start-after=b%2F&delimiter=%2F'],
  ['fetch-owner', 'fetch-owner=true'],
  ['fetch-owner-false', 'fetch-owner=false'],
  ['continuation-token-empty', 'continuation-token='],
  ['continuation-token-junk', 'continuation-token=not-a-token'],
  ['marker-ignored', 'marker=b%2Fd'],
];

const v1 = (name: string, q: string): Row => s(`list.v1.${name}`, GET(`/{f:listing}${q ? `?${q}` : ''}`));
const v2 = (name: string, q: string): Row => s(`list.v2.${name}`, GET(`/{f:listing}?list-type=2${q ? `&${q}` : ''}`));

export const S3_LISTING_ROWS: Row[] = [
  ...COMMON.map(([name, q]) => v1(name, q)),
  ...V1_ONLY.map(([name, q]) => v1(name, q)),
  ...COMMON.map(([name, q]) => v2(name, q)),
  ...V2_ONLY.map(([name, q]) => v2(name, q)),
  s('list.v2.continuation', GET('/{f:listing}?list-type=2&max-keys=3&continuation-token={url:token}'), {
    setup: [GET('/{f:listing}?list-type=2&max-keys=3', { capture: { token: 'xml:NextContinuationToken' } })],
  }),
  s('list.v2.continuation-delimiter', GET('/{f:listing}?list-type=2&max-keys=2&delimiter=%2F&continuation-token={url:token}'), {
    setup: [GET('/{f:listing}?list-type=2&max-keys=2&delimiter=%2F', { capture: { token: 'xml:NextContinuationToken' } })],
  }),
  s('list.v1.next-marker', GET('/{f:listing}?max-keys=3&delimiter=%2F&marker={url:marker}'), {
    setup: [GET('/{f:listing}?max-keys=3&delimiter=%2F', { capture: { marker: 'xml:NextMarker' } })],
  }),
  s('list.list-type-3', GET('/{f:listing}?list-type=3')),
  s('list.empty.v1', GET('/{f:empty}')),
  s('list.empty.v2', GET('/{f:empty}?list-type=2')),
  s('list.objects-fixture.v2', GET('/{f:objects}?list-type=2')),
  s('list.missing-bucket', GET('/{b}?list-type=2')),

  // ListObjectVersions on a bucket that was never versioned
  s('versions.list', GET('/{f:listing}?versions')),
  s('versions.list.prefix-delimiter', GET('/{f:listing}?versions&prefix=b%2F&delimiter=%2F')),
  s('versions.list.max-keys', GET('/{f:listing}?versions&max-keys=2')),
  s('versions.list.key-marker', GET('/{f:listing}?versions&key-marker=b%2Fd')),
  s('versions.list.version-id-marker-alone', GET('/{f:listing}?versions&version-id-marker=null')),
  s('versions.list.key-and-version-marker', GET('/{f:listing}?versions&key-marker=b%2Fd&version-id-marker=null')),
  s('versions.list.encoding-url', GET('/{f:listing}?versions&encoding-type=url&prefix=%C3%A9')),
  s('versions.list.empty', GET('/{f:empty}?versions')),

  // ListMultipartUploads
  s('uploads.list.none', GET('/{f:empty}?uploads')),
  s('uploads.list', GET('/{b}?uploads'), { setup: [...OWN_B, POST('/{b}/one?uploads'), POST('/{b}/dir/two?uploads')] }),
  s('uploads.list.prefix-delimiter', GET('/{b}?uploads&prefix=dir%2F&delimiter=%2F'), { setup: [...OWN_B, POST('/{b}/one?uploads'), POST('/{b}/dir/two?uploads')] }),
  s('uploads.list.delimiter', GET('/{b}?uploads&delimiter=%2F'), { setup: [...OWN_B, POST('/{b}/one?uploads'), POST('/{b}/dir/two?uploads')] }),
  s('uploads.list.max-uploads', GET('/{b}?uploads&max-uploads=1'), { setup: [...OWN_B, POST('/{b}/one?uploads'), POST('/{b}/dir/two?uploads')] }),
  s('uploads.list.max-uploads-junk', GET('/{b}?uploads&max-uploads=abc'), { setup: OWN_B }),
  s('uploads.list.key-marker', GET('/{b}?uploads&key-marker=dir%2Ftwo'), { setup: [...OWN_B, POST('/{b}/one?uploads'), POST('/{b}/dir/two?uploads')] }),
  s('uploads.list.encoding-url', GET('/{b}?uploads&encoding-type=url'), { setup: [...OWN_B, POST('/{b}/%C3%A9?uploads')] }),
];
