// Native API: container listings over the listing fixture (fixtures.ts: a, b/c, b/d, b/e/f, b0,
// cat.png, catchemall/x.jpg, caterpillar.png, z/, z/y, é/ü.txt), every parameter and the
// combinations 4.1.2 of the seed allows and forbids, in each format.
import type { Row } from '../types.js';
import { GET, n } from './helpers.js';

/** Parameter sets by name: each becomes a JSON row, the marked ones also a plain-text, an XML and a default-format row. */
const PARAMS: [name: string, query: string, allFormats?: boolean][] = [
  ['none', '', true],
  ['prefix', 'prefix=b/', true],
  ['prefix-cat', 'prefix=cat'],
  ['prefix-none', 'prefix=nomatch', true],
  ['prefix-utf8', 'prefix=%C3%A9'],
  ['prefix-empty', 'prefix='],
  ['delimiter', 'delimiter=/', true],
  ['delimiter-dot', 'delimiter=.'],
  ['delimiter-multichar', 'delimiter=ab'],
  ['delimiter-empty', 'delimiter='],
  ['prefix-delimiter', 'prefix=b/&delimiter=/', true],
  ['prefix-delimiter-deep', 'prefix=b/e/&delimiter=/'],
  ['prefix-no-slash-delimiter', 'prefix=b&delimiter=/'],
  ['marker', 'marker=b/d'],
  ['marker-past-end', 'marker=zzz'],
  ['marker-empty', 'marker='],
  ['end-marker', 'end_marker=b0'],
  ['marker-end-marker', 'marker=a&end_marker=b/e/f'],
  ['end-marker-before-marker', 'marker=z&end_marker=b'],
  ['marker-delimiter', 'marker=b/&delimiter=/'],
  ['marker-in-subdir-delimiter', 'marker=b/c&delimiter=/'],
  ['limit-0', 'limit=0'],
  ['limit-1', 'limit=1', true],
  ['limit-3-delimiter', 'limit=3&delimiter=/'],
  ['limit-10000', 'limit=10000'],
  ['limit-10001', 'limit=10001'],
  ['limit-negative', 'limit=-1'],
  ['limit-junk', 'limit=abc'],
  ['limit-float', 'limit=5000.0'],
  ['limit-empty', 'limit='],
  ['reverse', 'reverse=true', true],
  ['reverse-on', 'reverse=on'],
  ['reverse-1', 'reverse=1'],
  ['reverse-false', 'reverse=false'],
  ['reverse-junk', 'reverse=maybe'],
  ['reverse-delimiter', 'reverse=true&delimiter=/'],
  ['reverse-marker', 'reverse=true&marker=b0'],
  ['reverse-limit', 'reverse=true&limit=2'],
  ['path', 'path=b', true],
  ['path-slash', 'path=b/'],
  ['path-root', 'path='],
  ['path-deep', 'path=b/e'],
  ['path-missing', 'path=nomatch'],
  ['path-with-delimiter', 'path=b&delimiter=/'],
  ['path-with-prefix', 'path=b&prefix=b'],
  ['path-with-empty-prefix', 'path=b&prefix='],
  ['path-with-empty-delimiter', 'path=b&delimiter='],
  ['unordered', 'allow_unordered=true'],
  ['unordered-false', 'allow_unordered=false'],
  ['unordered-delimiter', 'allow_unordered=true&delimiter=/'],
  ['unordered-false-delimiter', 'allow_unordered=false&delimiter=/'],
  ['unordered-path', 'allow_unordered=true&path=b'],
  ['unordered-false-path', 'allow_unordered=false&path=b'],
  ['unknown-parameter', 'colour=blue'],
];

const FORMATS: [name: string, query: string][] = [
  ['json', 'format=json'],
  ['plain', 'format=plain'],
  ['xml', 'format=xml'],
  // No format: JSON by the seed (N4, 4.1.1), plain text by Swift.
  ['default', ''],
];

function listing(name: string, query: string, format: [string, string]): Row {
  const q = [format[1], query].filter(Boolean).join('&');
  return n(`listing.${format[0]}.${name}`, GET(`/{f:listing}${q ? `?${q}` : ''}`));
}

export const NATIVE_LISTING_ROWS: Row[] = [
  ...PARAMS.flatMap(([name, query, all]) => (all ? FORMATS : FORMATS.slice(0, 1)).map((f) => listing(name, query, f))),
  n('listing.format.txt', GET('/{f:listing}?format=txt')),
  n('listing.format.bogus', GET('/{f:listing}?format=yaml')),
  n('listing.format.upper', GET('/{f:listing}?format=JSON')),
  n('listing.accept.json', GET('/{f:listing}', { headers: { Accept: 'application/json' } })),
  n('listing.accept.xml', GET('/{f:listing}', { headers: { Accept: 'application/xml' } })),
  n('listing.accept.text-xml', GET('/{f:listing}', { headers: { Accept: 'text/xml' } })),
  n('listing.accept.plain', GET('/{f:listing}', { headers: { Accept: 'text/plain' } })),
  n('listing.accept.any', GET('/{f:listing}', { headers: { Accept: '*/*' } })),
  n('listing.accept.format-wins', GET('/{f:listing}?format=json', { headers: { Accept: 'application/xml' } })),
  // Accept as swob reads it: quality, then exact types before wildcards, then the header's order.
  n('listing.accept.order', GET('/{f:listing}', { headers: { Accept: 'text/plain, application/json' } })),
  n('listing.accept.quality', GET('/{f:listing}', { headers: { Accept: 'application/json;q=0.5, text/xml' } })),
  n('listing.accept.exact-over-wildcard', GET('/{f:listing}', { headers: { Accept: '*/*;q=0.9, text/xml;q=0.9' } })),
  n('listing.accept.text-wildcard', GET('/{f:listing}', { headers: { Accept: 'text/*' } })),
  n('listing.accept.application-wildcard', GET('/{f:listing}', { headers: { Accept: 'application/*' } })),
  n('listing.accept.with-params', GET('/{f:listing}', { headers: { Accept: 'application/xml;charset="utf-8";q=1' } })),
  n('listing.accept.unacceptable', GET('/{f:listing}', { headers: { Accept: 'image/png' } })),
  n('listing.accept.unacceptable-format-wins', GET('/{f:listing}?format=xml', { headers: { Accept: 'image/png' } })),
  n('listing.accept.malformed', GET('/{f:listing}', { headers: { Accept: 'json' } })),
  n('listing.accept.bad-quality', GET('/{f:listing}', { headers: { Accept: 'text/xml;q=x' } })),
  // Swift's listing_formats sits before auth in the pipeline: an anonymous caller hears 406/400 first.
  n('listing.accept.unacceptable.anonymous', GET('/{f:listing}', { as: 'anonymous', headers: { Accept: 'image/png' } })),
  n('listing.accept.malformed.anonymous', GET('/{f:listing}', { as: 'anonymous', headers: { Accept: 'json' } })),
  n('listing.accept.text-xml.head', { method: 'HEAD', path: '/{f:listing}', headers: { Accept: 'text/xml' } }),
  n('listing.empty.json', GET('/{f:empty}?format=json')),
  n('listing.empty.plain', GET('/{f:empty}?format=plain')),
  n('listing.empty.default', GET('/{f:empty}')),
  n('listing.empty.xml', GET('/{f:empty}?format=xml')),
  n('listing.head', { method: 'HEAD', path: '/{f:listing}?format=json' }),
  n('listing.head.default', { method: 'HEAD', path: '/{f:listing}' }),
  n('listing.objects.json', GET('/{f:objects}?format=json')),
  n('listing.objects.xml', GET('/{f:objects}?format=xml')),
];
