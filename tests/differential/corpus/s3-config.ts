// S3 API: bucket configuration (issue 26, part 4): lifecycle rules, their refusals and x-amz-expiration;
// CORS rules, preflights and the grant on actual requests.
import type { Req, Row } from '../types.js';
import { DELETE, GET, HEAD, OWN_B, OWN_B_OBJ, POST, PUT, s, S3NS, xmlDoc } from './helpers.js';

const COMPLETE_ONE = xmlDoc(`<CompleteMultipartUpload xmlns="${S3NS}"><Part><PartNumber>1</PartNumber><ETag>{etag1}</ETag></Part></CompleteMultipartUpload>`);

const lifecycle = (rules: string) => xmlDoc(`<LifecycleConfiguration xmlns="${S3NS}">${rules}</LifecycleConfiguration>`);
const rule = (inner: string, id = 'r') => `<Rule><ID>${id}</ID>${inner}</Rule>`;
const DAYS = rule('<Filter><Prefix>tmp/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>3</Days></Expiration>');
const EVERY = rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Days>2</Days></Expiration>', 'all');
const put = (body: string): Req => PUT('/{b}?lifecycle', { body: lifecycle(body), md5: true });
const refused = (id: string, body: string): Row => s(`lifecycle.refused.${id}`, put(body), { setup: OWN_B });

const putCors = (rules: string): Req => PUT('/{b}?cors', { body: xmlDoc(`<CORSConfiguration xmlns="${S3NS}">${rules}</CORSConfiguration>`), md5: true });
const APP_RULE =
  '<CORSRule><ID>app</ID><AllowedOrigin>https://app.example.com</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedHeader>content-type</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule>';
const ANY_RULE = '<CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule>';
const CORS_OBJ: Req[] = [...OWN_B_OBJ, putCors(APP_RULE + ANY_RULE)];
const preflight = (headers: Record<string, string>): Req => ({ method: 'OPTIONS', path: '/{b}/obj', as: 'anonymous', headers });

export const S3_CONFIG_ROWS: Row[] = [
  s('lifecycle.get', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(DAYS)] }),
  s('lifecycle.get.legacy-prefix', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(rule('<Prefix>logs/</Prefix><Status>Disabled</Status><Expiration><Days>1</Days></Expiration>'))] }),
  s('lifecycle.get.and-prefix', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(rule('<Filter><And><Prefix>a/</Prefix></And></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>'))] }),
  s('lifecycle.get.noncurrent-abort', GET('/{b}?lifecycle'), {
    setup: [...OWN_B, put(rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>4</NoncurrentDays></NoncurrentVersionExpiration><AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation></AbortIncompleteMultipartUpload>'))],
  }),
  s('lifecycle.get.delete-marker', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>'))] }),
  s('lifecycle.get.date', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Date>2030-01-01T00:00:00.000Z</Date></Expiration>'))] }),
  s('lifecycle.get.after-delete', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(DAYS), DELETE('/{b}?lifecycle')] }),
  s('lifecycle.get.other', GET('/{b}?lifecycle', { as: 'other' }), { setup: [...OWN_B, put(DAYS)] }),
  s('lifecycle.put.other', { ...put(DAYS), as: 'other' }, { setup: OWN_B }),
  s('lifecycle.put.replaces', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(DAYS), put(EVERY)] }),
  s('lifecycle.put.missing-bucket', put(DAYS)),
  s('lifecycle.put.no-md5', { ...put(DAYS), md5: false }, { setup: OWN_B }),
  refused('days-zero', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Days>0</Days></Expiration>')),
  refused('days-negative', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Days>-2</Days></Expiration>')),
  refused('date-not-midnight', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Date>2030-01-01T12:00:00Z</Date></Expiration>')),
  refused('bad-status', rule('<Filter><Prefix></Prefix></Filter><Status>On</Status><Expiration><Days>1</Days></Expiration>')),
  refused('no-status', rule('<Filter><Prefix></Prefix></Filter><Expiration><Days>1</Days></Expiration>')),
  refused('prefix-and-filter', rule('<Prefix>a</Prefix><Filter><Prefix>b</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')),
  refused('no-action', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status>')),
  refused('duplicate-id', DAYS + DAYS),
  refused('long-id', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>', 'i'.repeat(256))),
  refused('noncurrent-zero', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>0</NoncurrentDays></NoncurrentVersionExpiration>')),
  refused('no-rules', ''),
  s('lifecycle.refused.malformed', PUT('/{b}?lifecycle', { body: '<LifecycleConfiguration>', md5: true }), { setup: OWN_B }),
  // Tag and size filters (evaluated by the sweep): put, read back, and AWS's refusals
  s('lifecycle.get.tag-filter', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(rule('<Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>'))] }),
  s('lifecycle.get.and-tags', GET('/{b}?lifecycle'), {
    setup: [...OWN_B, put(rule('<Filter><And><Prefix>logs/</Prefix><Tag><Key>a</Key><Value>1</Value></Tag><Tag><Key>b</Key><Value>2</Value></Tag></And></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>'))],
  }),
  s('lifecycle.get.size-filter', GET('/{b}?lifecycle'), {
    setup: [...OWN_B, put(rule('<Filter><And><Prefix>big/</Prefix><ObjectSizeGreaterThan>10</ObjectSizeGreaterThan><ObjectSizeLessThan>100</ObjectSizeLessThan></And></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>'))],
  }),
  refused('duplicate-tag-keys', rule('<Filter><And><Tag><Key>k</Key><Value>1</Value></Tag><Tag><Key>k</Key><Value>2</Value></Tag></And></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')),
  refused('tag-with-abort', rule('<Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Status>Enabled</Status><AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload>')),
  s('lifecycle.expiration.tag-covered', HEAD('/{b}/obj2'), {
    setup: [...OWN_B, put(rule('<Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')), PUT('/{b}/obj2', { body: 'x', headers: { 'x-amz-tagging': 'k=v' } })],
  }),
  s('lifecycle.expiration.tag-not-covered', HEAD('/{b}/obj2'), {
    setup: [...OWN_B, put(rule('<Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')), PUT('/{b}/obj2', { body: 'x', headers: { 'x-amz-tagging': 'k=w' } })],
  }),
  refused('transition', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition>')),
  // x-amz-expiration: the expiry date (midnight UTC, days after the object's time) and the rule.
  s('lifecycle.expiration.head', HEAD('/{b}/obj'), { setup: [...OWN_B_OBJ, put(EVERY)] }),
  s('lifecycle.expiration.get', GET('/{b}/obj'), { setup: [...OWN_B_OBJ, put(EVERY)] }),
  s('lifecycle.expiration.put', PUT('/{b}/obj2', { body: 'x' }), { setup: [...OWN_B, put(EVERY)] }),
  s('lifecycle.expiration.not-covered', HEAD('/{b}/obj'), { setup: [...OWN_B_OBJ, put(DAYS)] }),
  s('lifecycle.expiration.copy', PUT('/{b}/copied', { headers: { 'x-amz-copy-source': '/{b}/obj' } }), { setup: [...OWN_B_OBJ, put(EVERY)] }),
  s('lifecycle.expiration.complete', POST('/{b}/mp?uploadId={url:upload}', { body: COMPLETE_ONE }), {
    setup: [...OWN_B, put(EVERY), POST('/{b}/mp?uploads', { capture: { upload: 'xml:UploadId' } }), PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'only part', capture: { etag1: 'header:etag' } })],
  }),

  // CORS
  s('cors.get', GET('/{b}?cors'), { setup: [...OWN_B, putCors(APP_RULE + ANY_RULE)] }),
  s('cors.put.no-md5', { ...putCors(APP_RULE), md5: false }, { setup: OWN_B }),
  s('cors.get.after-delete', GET('/{b}?cors'), { setup: [...OWN_B, putCors(APP_RULE), DELETE('/{b}?cors')] }),
  s('cors.get.other', GET('/{b}?cors', { as: 'other' }), { setup: [...OWN_B, putCors(APP_RULE)] }),
  s('cors.refused.method', putCors('<CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PATCH</AllowedMethod></CORSRule>'), { setup: OWN_B }),
  s('cors.refused.two-wildcards', putCors('<CORSRule><AllowedOrigin>https://*.*.com</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule>'), { setup: OWN_B }),
  s('cors.refused.no-origin', putCors('<CORSRule><AllowedMethod>GET</AllowedMethod></CORSRule>'), { setup: OWN_B }),
  s('cors.refused.no-rules', putCors(''), { setup: OWN_B }),
  s('cors.preflight.match', preflight({ Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'content-type' }), { setup: CORS_OBJ }),
  s('cors.preflight.any-origin', preflight({ Origin: 'https://elsewhere.test', 'Access-Control-Request-Method': 'GET' }), { setup: CORS_OBJ }),
  s('cors.preflight.bucket', { ...preflight({ Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' }), path: '/{b}' }, { setup: CORS_OBJ }),
  s('cors.preflight.wrong-origin', preflight({ Origin: 'https://elsewhere.test', 'Access-Control-Request-Method': 'PUT' }), { setup: CORS_OBJ }),
  s('cors.preflight.wrong-header', preflight({ Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'x-custom' }), { setup: CORS_OBJ }),
  s('cors.preflight.no-config', preflight({ Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' }), { setup: OWN_B_OBJ }),
  s('cors.preflight.no-origin', preflight({ 'Access-Control-Request-Method': 'GET' }), { setup: CORS_OBJ }),
  s('cors.preflight.forged-presigned', { ...preflight({ Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' }), path: '/{b}/obj?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=00' }, { setup: CORS_OBJ }),
  s('cors.actual.get', GET('/{b}/obj', { headers: { Origin: 'https://app.example.com' } }), { setup: CORS_OBJ }),
  s('cors.actual.other-origin', GET('/{b}/obj', { headers: { Origin: 'https://elsewhere.test' } }), { setup: CORS_OBJ }),
];
