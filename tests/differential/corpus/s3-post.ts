// S3 API: browser form uploads (POST Object): forms signed with SigV4 and SigV2 POST policies,
// unsigned forms to a bucket open to anonymous writes, and the refusals of the policy and the form.
import type { Row } from '../types.js';
import { GET, OWN_B, PUT, s, s3Form } from './helpers.js';

const TXT: [string, string, string] = ['a.txt', 'hello from a form\n', 'text/plain'];
/** Swift's s3api has no POST Object: a form posted to a bucket reaches Swift's own formpost. */
const NO_S3API = { skip: { s3api: "Swift's s3api has no POST Object (the form goes to Swift's formpost)" } };
const TAGGING = '<Tagging><TagSet><Tag><Key>project</Key><Value>blue</Value></Tag><Tag><Key>tier</Key><Value>2</Value></Tag></TagSet></Tagging>';
const PUBLIC_B = [...OWN_B, PUT('/{b}?acl', { headers: { 'x-amz-acl': 'public-read-write' } })];

const ROWS: Row[] = [
  s('post.sigv4', s3Form('/{b}', [['key', 'form.txt']], TXT), { setup: OWN_B }),
  s('post.sigv4.read-back', GET('/{b}/form.txt'), {
    setup: [...OWN_B, s3Form('/{b}', [['key', 'form.txt'], ['Content-Type', 'text/x-form'], ['x-amz-meta-owner', 'ann'], ['Cache-Control', 'max-age=60']], TXT)],
  }),
  s('post.sigv2', s3Form('/{b}', [['key', 'v2.txt']], TXT, { v2: true }), { setup: OWN_B }),
  s('post.status-201', s3Form('/{b}', [['key', 'x/201.txt'], ['success_action_status', '201']], TXT), { setup: OWN_B }),
  s('post.status-200', s3Form('/{b}', [['key', '200.txt'], ['success_action_status', '200']], TXT), { setup: OWN_B }),
  s('post.status-bogus', s3Form('/{b}', [['key', '299.txt'], ['success_action_status', '299']], TXT), { setup: OWN_B }),
  s('post.redirect', s3Form('/{b}', [['key', 'r.txt'], ['success_action_redirect', 'https://example.com/done?x=1']], TXT), { setup: OWN_B }),
  s('post.filename', s3Form('/{b}', [['key', 'up/$' + '{filename}']], TXT, { conditions: [['starts-with', '$key', 'up/']] }), { setup: OWN_B }),
  s('post.filename.read-back', GET('/{b}/up/a.txt'), { setup: [...OWN_B, s3Form('/{b}', [['key', 'up/$' + '{filename}']], TXT, { conditions: [['starts-with', '$key', 'up/']] })] }),
  s('post.acl-public-read', GET('/{b}/pub.txt', { as: 'anonymous' }), { setup: [...OWN_B, s3Form('/{b}', [['key', 'pub.txt'], ['acl', 'public-read']], TXT)] }),
  s('post.length-range.ok', s3Form('/{b}', [['key', 'n.txt']], TXT, { extraConditions: [['content-length-range', 1, 100]] }), { setup: OWN_B }),
  s('post.length-range.too-large', s3Form('/{b}', [['key', 'n.txt']], TXT, { extraConditions: [['content-length-range', 1, 10]] }), { setup: OWN_B }),
  s('post.length-range.too-small', s3Form('/{b}', [['key', 'n.txt']], TXT, { extraConditions: [['content-length-range', 100, 200]] }), { setup: OWN_B }),
  s('post.condition-failed', s3Form('/{b}', [['key', 'other.txt']], TXT, { conditions: [{ key: 'signed.txt' }] }), { setup: OWN_B }),
  s('post.starts-with-failed', s3Form('/{b}', [['key', 'elsewhere/a.txt']], TXT, { conditions: [['starts-with', '$key', 'up/']] }), { setup: OWN_B }),
  s('post.extra-field', s3Form('/{b}', [['key', 'e.txt'], ['x-amz-meta-sneaky', '1']], TXT, { conditions: [{ key: 'e.txt' }] }), { setup: OWN_B }),
  s('post.x-ignore-field', s3Form('/{b}', [['key', 'i.txt'], ['x-ignore-note', '1']], TXT, { conditions: [{ key: 'i.txt' }] }), { setup: OWN_B }),
  s('post.expired', s3Form('/{b}', [['key', 'late.txt']], TXT, { expires: -60 }), { setup: OWN_B }),
  s('post.bad-signature', s3Form('/{b}', [['key', 'f.txt']], TXT, { as: 'bad-signature' }), { setup: OWN_B }),
  s('post.bad-signature-v2', s3Form('/{b}', [['key', 'f.txt']], TXT, { as: 'bad-signature', v2: true }), { setup: OWN_B }),
  s('post.unknown-key', s3Form('/{b}', [['key', 'f.txt']], TXT, { as: 'unknown-key' }), { setup: OWN_B }),
  s('post.other-user', s3Form('/{b}', [['key', 'f.txt']], TXT, { as: 'other' }), { setup: OWN_B }),
  s('post.no-file', s3Form('/{b}', [['key', 'f.txt']], undefined), { setup: OWN_B }),
  s('post.anonymous.public-write', s3Form('/{b}', [['key', 'anon.txt']], TXT, { signed: false, as: 'anonymous' }), { setup: PUBLIC_B }),
  s('post.anonymous.read-back', GET('/{b}/anon.txt'), { setup: [...PUBLIC_B, s3Form('/{b}', [['key', 'anon.txt']], TXT, { signed: false, as: 'anonymous' })] }),
  s('post.anonymous.private', s3Form('/{b}', [['key', 'anon.txt']], TXT, { signed: false, as: 'anonymous' }), { setup: OWN_B }),
  s('post.anonymous.no-key', s3Form('/{b}', [], TXT, { signed: false, as: 'anonymous' }), { setup: PUBLIC_B }),
  // Fields PutObject takes as headers: the tags (a Tagging document, as AWS's POST takes them) and server-side encryption
  s('post.tagging', s3Form('/{b}', [['key', 't.txt'], ['tagging', TAGGING]], TXT), { setup: OWN_B }),
  s('post.tagging.read-back', GET('/{b}/t.txt?tagging'), { setup: [...OWN_B, s3Form('/{b}', [['key', 't.txt'], ['tagging', TAGGING]], TXT)] }),
  s('post.tagging.too-many', s3Form('/{b}', [['key', 't.txt'], ['tagging', `<Tagging><TagSet>${Array.from({ length: 11 }, (_, i) => `<Tag><Key>k${i}</Key><Value>v</Value></Tag>`).join('')}</TagSet></Tagging>`]], TXT), { setup: OWN_B }),
  s('post.sse-kms', s3Form('/{b}', [['key', 'e.txt'], ['x-amz-server-side-encryption', 'aws:kms']], TXT), { setup: OWN_B }),
  s('post.malformed', { method: 'POST', path: '/{b}', as: 'anonymous', headers: { 'Content-Type': 'multipart/form-data; boundary=FORMBOUNDARY' }, body: 'no form here' }, { setup: PUBLIC_B }),
];

export const S3_POST_ROWS: Row[] = ROWS.map((row) => ({ ...row, ...NO_S3API }));
