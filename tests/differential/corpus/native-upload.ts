// Native API: Swift's upload middleware, bulk upload (`PUT ?extract-archive=`) and form posts.
import type { Req, Row } from '../types.js';
import { formBody, GET, HEAD, n, OWN_C, POST, PUT, tarOf } from './helpers.js';

const JSON_ACCEPT = { Accept: 'application/json' };
const TWO_FILES = tarOf([['a.txt', 'alpha\n'], ['d/b.json', '{"b":1}']]);
const WITH_XATTRS = tarOf([['m.txt', 'meta\n', { 'SCHILY.xattr.user.meta.color': 'red', 'SCHILY.xattr.user.mime_type': 'application/x-custom', 'SCHILY.xattr.user.other': 'x' }]]);
const extract = (path: string, body: string, headers: Record<string, string> = JSON_ACCEPT, format = 'tar') => PUT(`${path}?extract-archive=${format}`, { body, headers });

// Form posts sign with the account's second TempURL key, so the TempURL rows' first key is left alone.
const FORM_KEY = 'form-post-key';
const WITH_FORM_KEY = POST('', { headers: { 'X-Account-Meta-Temp-URL-Key-2': FORM_KEY } });
const FORM_TYPE = { 'Content-Type': 'multipart/form-data; boundary=FORMBOUNDARY' };
interface FormOptions {
  redirect?: string;
  maxFileSize?: number;
  maxFileCount?: number;
  expires?: number;
  key?: string;
  digest?: 'sha1' | 'sha256' | 'sha512';
  /** Fields instead of the signed set (max_file_size, max_file_count, expires, signature, redirect). */
  fields?: [string, string][];
  after?: [string, string][];
}
/** A signed form post of `files` to `path` (anonymous, as a browser sends it). */
function form(path: string, files: [string, string, string, string?][], o: FormOptions = {}) {
  const maxFileSize = o.maxFileSize ?? 1024;
  const maxFileCount = o.maxFileCount ?? 2;
  const fields: [string, string][] = o.fields ?? [
    ...(o.redirect !== undefined ? [['redirect', o.redirect] as [string, string]] : []),
    ['max_file_size', String(maxFileSize)],
    ['max_file_count', String(maxFileCount)],
    ['expires', '[[form-expires]]'],
    ['signature', '[[form-sig]]'],
  ];
  return POST(path, {
    as: 'anonymous',
    headers: FORM_TYPE,
    body: formBody(fields, files, o.after),
    form: { key: o.key ?? FORM_KEY, expires: o.expires ?? 300, maxFileSize, maxFileCount, ...(o.redirect !== undefined ? { redirect: o.redirect } : {}), ...(o.digest ? { digest: o.digest } : {}) },
  });
}
const FORM_SETUP = [WITH_FORM_KEY, ...OWN_C];
const ALLOW_A = POST('/{c}', { headers: { 'X-Container-Meta-Access-Control-Allow-Origin': 'https://a.example', 'X-Container-Meta-Access-Control-Expose-Headers': 'X-Custom' } });
const withOrigin = (req: Req): Req => ({ ...req, headers: { ...req.headers, Origin: 'https://a.example' } });

export const NATIVE_UPLOAD_ROWS: Row[] = [
  // bulk upload: always 200, the outcome in the report
  n('bulk.upload.tar', PUT('/{c}?extract-archive=tar', { body: { size: 1024, seed: 'not a tar' }, headers: JSON_ACCEPT }), { setup: OWN_C }),
  n('bulk.upload.container', extract('/{c}', TWO_FILES)),
  n('bulk.upload.existing-container', extract('/{c}', TWO_FILES), { setup: OWN_C }),
  n('bulk.upload.prefix-plain', extract('/{c}/some/prefix/', TWO_FILES, {})),
  n('bulk.upload.xml', extract('/{c}', TWO_FILES, { Accept: 'application/xml' })),
  n('bulk.upload.text-xml', extract('/{c}', TWO_FILES, { Accept: 'text/xml' })),
  n('bulk.upload.text-xml-failure', extract('/{c}', TWO_FILES, { Accept: 'text/xml' }, 'zip')),
  n('bulk.upload.listing', GET('/{c}?format=json'), { setup: [extract('/{c}/p', TWO_FILES)] }),
  n('bulk.upload.pax-metadata', HEAD('/{c}/m.txt'), { setup: [extract('/{c}', WITH_XATTRS, { 'X-Object-Meta-Source': 'bulk' })] }),
  n('bulk.upload.bad-delete-after', extract('/{c}', TWO_FILES, { ...JSON_ACCEPT, 'X-Delete-After': 'soon' })),
  n('bulk.upload.meta-too-long', extract('/{c}', tarOf([['k.txt', 'k', { [`SCHILY.xattr.user.meta.${'k'.repeat(129)}`]: 'v' }], ['ok.txt', 'ok']]))),
  n('bulk.upload.no-valid-files', extract('/{c}', '\0'.repeat(1024))),
  n('bulk.upload.empty-body', extract('/{c}', '')),
  n('bulk.upload.truncated', extract('/{c}', TWO_FILES.slice(0, 1100))),
  n('bulk.upload.truncated-member', extract('/{c}', TWO_FILES.slice(0, 515))),
  n('bulk.upload.junk-after-first', extract('/{c}', TWO_FILES.slice(0, 1024) + 'x'.repeat(2048))),
  n('bulk.upload.not-gzip', extract('/{c}', TWO_FILES, JSON_ACCEPT, 'tar.gz')),
  n('bulk.upload.not-bzip2', extract('/{c}', TWO_FILES, JSON_ACCEPT, 'tar.bz2')),
  n('bulk.upload.unsupported-format', extract('/{c}', TWO_FILES, JSON_ACCEPT, 'zip')),
  n('bulk.upload.not-acceptable', extract('/{c}', TWO_FILES, { Accept: 'image/png' })),
  n('bulk.upload.anonymous', { ...extract('/{c}', TWO_FILES), as: 'anonymous' }, { setup: OWN_C }),
  n('bulk.upload.bad-token', { ...extract('/{c}', TWO_FILES), as: 'bad-token' }, { setup: OWN_C }),
  n('bulk.upload.other-user', { ...extract('/{c}', TWO_FILES), as: 'other' }, { setup: OWN_C }),

  // form posts
  n('formpost.no-signature', POST('/{c}', { as: 'anonymous', body: '--x\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n\r\nhi\r\n--x--\r\n', headers: { 'Content-Type': 'multipart/form-data; boundary=x' } }), { setup: OWN_C }),
  n('formpost.upload', form('/{c}', [['file1', 'a.txt', 'hello form\n', 'text/plain']]), { setup: FORM_SETUP }),
  n('formpost.uploaded', GET('/{c}/up/a.txt'), { setup: [...FORM_SETUP, form('/{c}/up/', [['file1', 'a.txt', 'hello form\n', 'text/plain']])] }),
  n('formpost.prefix-listing', GET('/{c}?format=json'), { setup: [...FORM_SETUP, form('/{c}/pre', [['f1', 'x.txt', 'x'], ['f2', 'y.bin', 'y', 'application/x-y']])] }),
  // Swift's answer copies the Access-Control-* headers of its last file's PUT.
  n('formpost.cors', withOrigin(form('/{c}', [['file1', 'a.txt', 'hi']])), { setup: [...FORM_SETUP, ALLOW_A] }),
  n('formpost.cors-redirect', withOrigin(form('/{c}', [['file1', 'a.txt', 'hi']], { redirect: 'https://example.com/done' })), { setup: [...FORM_SETUP, ALLOW_A] }),
  n('formpost.cors-other-origin', withOrigin(form('/{c}', [['file1', 'a.txt', 'hi']])), { setup: [...FORM_SETUP, POST('/{c}', { headers: { 'X-Container-Meta-Access-Control-Allow-Origin': 'https://b.example' } })] }),
  n('formpost.redirect', form('/{c}', [['file1', 'a.txt', 'hi']], { redirect: 'https://example.com/done?x=1' }), { setup: FORM_SETUP }),
  n('formpost.redirect-no-files', form('/{c}', [], { redirect: 'https://example.com/done' }), { setup: FORM_SETUP }),
  n('formpost.sha1', form('/{c}', [['file1', 'a.txt', 'hi']], { digest: 'sha1' }), { setup: FORM_SETUP }),
  n('formpost.sha512', form('/{c}', [['file1', 'a.txt', 'hi']], { digest: 'sha512' }), { setup: FORM_SETUP }),
  n('formpost.bad-signature', form('/{c}', [['file1', 'a.txt', 'hi']], { key: 'wrong' }), { setup: FORM_SETUP }),
  n('formpost.expired', form('/{c}', [['file1', 'a.txt', 'hi']], { expires: -60 }), { setup: FORM_SETUP }),
  n('formpost.too-large', form('/{c}', [['file1', 'a.txt', 'x'.repeat(2000)]]), { setup: FORM_SETUP }),
  n('formpost.too-many-files', form('/{c}', [['f1', 'a', '1'], ['f2', 'b', '2'], ['f3', 'c', '3']]), { setup: FORM_SETUP }),
  n('formpost.no-files', form('/{c}', []), { setup: FORM_SETUP }),
  n('formpost.bad-max-size', form('/{c}', [['file1', 'a.txt', 'hi']], { fields: [['max_file_size', 'big'], ['max_file_count', '1'], ['expires', '[[form-expires]]'], ['signature', '[[form-sig]]']] }), { setup: FORM_SETUP }),
  n('formpost.delete-after', HEAD('/{c}/a.txt'), {
    setup: [...FORM_SETUP, form('/{c}/', [['file1', 'a.txt', 'hi']], { fields: [['max_file_size', '1024'], ['max_file_count', '2'], ['expires', '[[form-expires]]'], ['signature', '[[form-sig]]'], ['x_delete_after', '3600']] })],
    compare: { presence: ['x-delete-at'] },
  }),
  n('formpost.fields-after-file-ignored', HEAD('/{c}/late.txt'), { setup: [...FORM_SETUP, form('/{c}/', [['file1', 'late.txt', 'hi']], { after: [['content-type', 'application/x-late']] })] }),
  n('formpost.content-type-field', HEAD('/{c}/typed.txt'), {
    setup: [...FORM_SETUP, form('/{c}/', [['file1', 'typed.txt', 'hi', 'text/plain']], { fields: [['content-type', 'application/x-form'], ['max_file_size', '1024'], ['max_file_count', '2'], ['expires', '[[form-expires]]'], ['signature', '[[form-sig]]']] })],
  }),
  n('formpost.container-key', form('/{c}', [['file1', 'a.txt', 'hi']], { key: 'container-form-key' }), { setup: [PUT('/{c}', { headers: { 'X-Container-Meta-Temp-URL-Key': 'container-form-key' } })] }),
  n('formpost.missing-container', form('/{c}2', [['file1', 'a.txt', 'hi']]), { setup: FORM_SETUP }),
  n('formpost.bad-boundary', POST('/{c}', { as: 'anonymous', headers: FORM_TYPE, body: 'junk\r\n--FORMBOUNDARY--\r\n' }), { setup: FORM_SETUP }),
  n('formpost.account', form('', [['file1', 'a.txt', 'hi']]), { setup: FORM_SETUP }),
];
