// Native API: Swift's upload middleware, bulk upload (`PUT ?extract-archive=`) and form posts.
import type { Row } from '../types.js';
import { GET, HEAD, n, OWN_C, POST, PUT, tarOf } from './helpers.js';

const JSON_ACCEPT = { Accept: 'application/json' };
const TWO_FILES = tarOf([['a.txt', 'alpha\n'], ['d/b.json', '{"b":1}']]);
const WITH_XATTRS = tarOf([['m.txt', 'meta\n', { 'SCHILY.xattr.user.meta.color': 'red', 'SCHILY.xattr.user.mime_type': 'application/x-custom', 'SCHILY.xattr.user.other': 'x' }]]);
const extract = (path: string, body: string, headers: Record<string, string> = JSON_ACCEPT, format = 'tar') => PUT(`${path}?extract-archive=${format}`, { body, headers });

export const NATIVE_UPLOAD_ROWS: Row[] = [
  // bulk upload: always 200, the outcome in the report
  n('bulk.upload.tar', PUT('/{c}?extract-archive=tar', { body: { size: 1024, seed: 'not a tar' }, headers: JSON_ACCEPT }), { setup: OWN_C }),
  n('bulk.upload.container', extract('/{c}', TWO_FILES)),
  n('bulk.upload.existing-container', extract('/{c}', TWO_FILES), { setup: OWN_C }),
  n('bulk.upload.prefix-plain', extract('/{c}/some/prefix/', TWO_FILES, {})),
  n('bulk.upload.xml', extract('/{c}', TWO_FILES, { Accept: 'application/xml' })),
  n('bulk.upload.listing', GET('/{c}?format=json'), { setup: [extract('/{c}/p', TWO_FILES)] }),
  n('bulk.upload.pax-metadata', HEAD('/{c}/m.txt'), { setup: [extract('/{c}', WITH_XATTRS, { 'X-Object-Meta-Source': 'bulk' })] }),
  n('bulk.upload.bad-delete-after', extract('/{c}', TWO_FILES, { ...JSON_ACCEPT, 'X-Delete-After': 'soon' })),
  n('bulk.upload.meta-too-long', extract('/{c}', tarOf([['k.txt', 'k', { [`SCHILY.xattr.user.meta.${'k'.repeat(129)}`]: 'v' }], ['ok.txt', 'ok']]))),
  n('bulk.upload.no-valid-files', extract('/{c}', '\0'.repeat(1024))),
  n('bulk.upload.empty-body', extract('/{c}', '')),
  n('bulk.upload.truncated', extract('/{c}', TWO_FILES.slice(0, 1100))),
  n('bulk.upload.not-gzip', extract('/{c}', TWO_FILES, JSON_ACCEPT, 'tar.gz')),
  n('bulk.upload.not-bzip2', extract('/{c}', TWO_FILES, JSON_ACCEPT, 'tar.bz2')),
  n('bulk.upload.unsupported-format', extract('/{c}', TWO_FILES, JSON_ACCEPT, 'zip')),
  n('bulk.upload.not-acceptable', extract('/{c}', TWO_FILES, { Accept: 'image/png' })),
  n('bulk.upload.anonymous', { ...extract('/{c}', TWO_FILES), as: 'anonymous' }, { setup: OWN_C }),
  n('bulk.upload.bad-token', { ...extract('/{c}', TWO_FILES), as: 'bad-token' }, { setup: OWN_C }),
  n('bulk.upload.other-user', { ...extract('/{c}', TWO_FILES), as: 'other' }, { setup: OWN_C }),

  // form posts
  n('formpost.no-signature', POST('/{c}', { as: 'anonymous', body: '--x\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n\r\nhi\r\n--x--\r\n', headers: { 'Content-Type': 'multipart/form-data; boundary=x' } }), { setup: OWN_C }),
];
