// S3 API: authentication and signatures, the service, buckets and their sub-resources.
import type { Row } from '../types.js';
import { DELETE, GET, HEAD, OWN_B, OWN_B_OBJ, POST, PUT, s, S3NS, xmlDoc } from './helpers.js';

const versioning = (status: string) => xmlDoc(`<VersioningConfiguration xmlns="${S3NS}"><Status>${status}</Status></VersioningConfiguration>`);
const CORS = xmlDoc(`<CORSConfiguration xmlns="${S3NS}"><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>`);
const LIFECYCLE = xmlDoc(
  `<LifecycleConfiguration xmlns="${S3NS}"><Rule><ID>r</ID><Filter><Prefix>tmp/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>`,
);
const TAGGING = xmlDoc(`<Tagging xmlns="${S3NS}"><TagSet><Tag><Key>k</Key><Value>v</Value></Tag></TagSet></Tagging>`);

/** Bucket sub-resources clients probe on a bucket that has none of them configured. */
const PROBES = ['cors', 'lifecycle', 'tagging', 'website', 'encryption', 'object-lock', 'publicAccessBlock', 'logging', 'requestPayment', 'ownershipControls', 'notification', 'replication', 'accelerate', 'policyStatus', 'analytics', 'uploads', 'versions&max-keys=1'];

export const S3_BUCKET_ROWS: Row[] = [
  // authentication and signatures
  s('auth.anonymous.list-buckets', GET('/', { as: 'anonymous' })),
  s('auth.anonymous.bucket', GET('/{f:objects}', { as: 'anonymous' })),
  s('auth.anonymous.object', GET('/{f:objects}/obj', { as: 'anonymous' })),
  s('auth.anonymous.put', PUT('/{f:objects}/anon', { as: 'anonymous', body: 'x' })),
  s('auth.bad-signature', GET('/{f:objects}/obj', { as: 'bad-signature' })),
  s('auth.bad-signature.put', PUT('/{f:objects}/bad', { as: 'bad-signature', body: 'x' })),
  s('auth.unknown-key', GET('/{f:objects}/obj', { as: 'unknown-key' })),
  s('auth.unknown-key.list-buckets', GET('/', { as: 'unknown-key' })),
  s('auth.skew-past', GET('/{f:objects}/obj', { clockSkew: -3600 })),
  s('auth.skew-future', GET('/{f:objects}/obj', { clockSkew: 3600 })),
  s('auth.skew-small', GET('/{f:objects}/obj', { clockSkew: -300 })),
  s('auth.unsigned-payload', PUT('/{b}/x', { body: 'unsigned', unsignedPayload: true }), { setup: OWN_B }),
  s('auth.payload-hash-mismatch', PUT('/{b}/x', { body: 'body', headers: { 'x-amz-content-sha256': 'a'.repeat(64) } }), { setup: OWN_B }),
  s('auth.payload-hash-junk', PUT('/{b}/x', { body: 'body', headers: { 'x-amz-content-sha256': 'junk' } }), { setup: OWN_B }),
  s('auth.authorization-garbage', GET('/{f:objects}/obj', { as: 'anonymous', headers: { Authorization: 'AWS4-HMAC-SHA256 garbage' } })),
  s('auth.authorization-unknown-scheme', GET('/{f:objects}/obj', { as: 'anonymous', headers: { Authorization: 'Bearer token' } })),
  s('auth.presigned.get', GET('/{f:objects}/obj', { presign: 300 })),
  s('auth.presigned.head', HEAD('/{f:objects}/obj', { presign: 300 })),
  s('auth.presigned.put', PUT('/{b}/x', { presign: 300, body: 'presigned' }), { setup: OWN_B }),
  s('auth.presigned.expired', GET('/{f:objects}/obj', { presign: 60, clockSkew: -3600 })),
  s('auth.presigned.bad-signature', GET('/{f:objects}/obj', { presign: 300, as: 'bad-signature' })),
  s('auth.presigned.response-overrides', GET('/{f:objects}/obj?response-content-type=application%2Fx-over&response-content-disposition=attachment', { presign: 300 })),
  s('auth.presigned.too-long', GET('/{f:objects}/obj', { presign: 604801 })),
  s('auth.presigned.expires-zero', GET('/{f:objects}/obj', { presign: 0 })),
  s('auth.presigned.expires-negative', GET('/{f:objects}/obj', { presign: -1 })),
  s('auth.sigv2.get', GET('/{f:objects}/obj', { sigv2: true })),
  s('auth.sigv2.list', GET('/{f:listing}?max-keys=2', { sigv2: true })),
  s('auth.sigv2.acl', GET('/{f:objects}?acl', { sigv2: true })),
  s('auth.sigv2.put', PUT('/{b}/x', { sigv2: true, body: 'v2', headers: { 'Content-Type': 'text/plain' } }), { setup: OWN_B }),
  s('auth.sigv2.bad-signature', GET('/{f:objects}/obj', { sigv2: true, as: 'bad-signature' })),
  s('auth.sigv2.skew', GET('/{f:objects}/obj', { sigv2: true, clockSkew: -3600 })),
  // A bucket's resource is its path as sent: /bucket/ when sent so, /bucket (not /bucket/) when sent without the slash.
  s('auth.sigv2.list-slash', GET('/{f:listing}/?max-keys=2', { sigv2: true })),
  s('auth.sigv2.list-signed-slash', GET('/{f:listing}?max-keys=2', { sigv2: true, sigv2Resource: '/{f:listing}/' })),
  s('auth.sigv2.no-date', GET('/{f:objects}/obj', { sigv2: true, sigv2Date: null })),
  s('auth.sigv2.empty-date', GET('/{f:objects}/obj', { sigv2: true, sigv2Date: '' })),
  s('auth.sigv2.junk-date', GET('/{f:objects}/obj', { sigv2: true, sigv2Date: 'yesterday' })),
  s('auth.sigv2.pre-epoch-date', GET('/{f:objects}/obj', { sigv2: true, sigv2Date: 'Wed, 31 Dec 1969 23:59:59 GMT' })),

  // the service
  s('service.list-buckets', GET('/'), { compare: { body: 'shape' } }),
  s('service.head', HEAD('/'), { skip: { rgw: 'Ceph RGW 16.2 sends a ListAllMyBucketsResult body after its HEAD answer: invalid HTTP, read differently each time' } }),
  s('service.post', POST('/')),
  s('service.delete', DELETE('/')),

  // buckets
  s('bucket.create', PUT('/{b}')),
  s('bucket.create.again', PUT('/{b}'), { setup: OWN_B }),
  s('bucket.create.taken-by-other', PUT('/{b}', { as: 'other' }), { setup: OWN_B }),
  s('bucket.create.location-us-east-1', PUT('/{b}', { body: xmlDoc(`<CreateBucketConfiguration xmlns="${S3NS}"><LocationConstraint>us-east-1</LocationConstraint></CreateBucketConfiguration>`) })),
  s('bucket.create.location-empty', PUT('/{b}', { body: xmlDoc(`<CreateBucketConfiguration xmlns="${S3NS}"></CreateBucketConfiguration>`) })),
  s('bucket.create.location-unknown', PUT('/{b}', { body: xmlDoc(`<CreateBucketConfiguration xmlns="${S3NS}"><LocationConstraint>mars-1</LocationConstraint></CreateBucketConfiguration>`) })),
  s('bucket.create.malformed-xml', PUT('/{b}', { body: '<CreateBucketConfiguration>' })),
  s('bucket.create.acl-public-read', GET('/{b}?acl'), { setup: [PUT('/{b}', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('bucket.create.acl-bogus', PUT('/{b}', { headers: { 'x-amz-acl': 'everyone' } })),
  s('bucket.create.name-uppercase', PUT('/{b}UP')),
  s('bucket.create.name-short', PUT('/ab')),
  s('bucket.create.name-63', PUT('/{b:63}')),
  s('bucket.create.name-64', PUT('/{b:64}')),
  s('bucket.create.name-underscore', PUT('/{b}_x')),
  s('bucket.create.name-leading-dash', PUT('/-{b}')),
  s('bucket.create.name-trailing-dash', PUT('/{b}-')),
  s('bucket.create.name-double-dot', PUT('/{b}..x')),
  s('bucket.create.name-dot-dash', PUT('/{b}.-x')),
  s('bucket.create.name-ip', PUT('/192.168.5.4')),
  s('bucket.create.name-utf8', PUT('/{b}%C3%A9')),
  s('bucket.head', HEAD('/{f:objects}')),
  s('bucket.head.missing', HEAD('/{b}')),
  s('bucket.head.other', HEAD('/{f:objects}', { as: 'other' })),
  s('bucket.head.invalid-name', HEAD('/{b}_x')),
  s('bucket.get.missing', GET('/{b}')),
  s('bucket.get.other', GET('/{f:objects}', { as: 'other' })),
  s('bucket.delete', DELETE('/{b}'), { setup: OWN_B }),
  s('bucket.delete.not-empty', DELETE('/{b}'), { setup: OWN_B_OBJ }),
  s('bucket.delete.missing', DELETE('/{b}')),
  s('bucket.delete.other', DELETE('/{b}', { as: 'other' }), { setup: OWN_B }),
  s('bucket.delete.only-uploads', DELETE('/{b}'), { setup: [...OWN_B, POST('/{b}/pending?uploads')] }),
  s('bucket.location', GET('/{f:objects}?location')),
  s('bucket.location.missing', GET('/{b}?location')),
  s('bucket.location.other', GET('/{f:objects}?location', { as: 'other' })),
  s('bucket.patch', { method: 'PATCH', path: '/{f:objects}' }),
  s('bucket.post', POST('/{f:objects}')),

  // versioning configuration
  s('bucket.versioning.never', GET('/{f:objects}?versioning')),
  s('bucket.versioning.enable', PUT('/{b}?versioning', { body: versioning('Enabled') }), { setup: OWN_B }),
  s('bucket.versioning.enabled', GET('/{b}?versioning'), { setup: [...OWN_B, PUT('/{b}?versioning', { body: versioning('Enabled') })] }),
  s('bucket.versioning.suspended', GET('/{b}?versioning'), { setup: [...OWN_B, PUT('/{b}?versioning', { body: versioning('Enabled') }), PUT('/{b}?versioning', { body: versioning('Suspended') })] }),
  s('bucket.versioning.suspend-never', PUT('/{b}?versioning', { body: versioning('Suspended') }), { setup: OWN_B }),
  s('bucket.versioning.bogus-status', PUT('/{b}?versioning', { body: versioning('Sometimes') }), { setup: OWN_B }),
  s('bucket.versioning.malformed', PUT('/{b}?versioning', { body: '<VersioningConfiguration>' }), { setup: OWN_B }),
  s('bucket.versioning.empty-body', PUT('/{b}?versioning', { body: '' }), { setup: OWN_B }),
  s('bucket.versioning.other', GET('/{f:objects}?versioning', { as: 'other' })),
  s('bucket.versioning.missing', GET('/{b}?versioning')),

  // sub-resources that are not configured, and configuring them
  ...PROBES.map((p) => s(`bucket.probe.${p.replace(/&.*/, '')}`, GET(`/{f:empty}?${p}`))),
  s('bucket.probe.missing-bucket', GET('/{b}?cors')),
  s('bucket.cors.put', PUT('/{b}?cors', { body: CORS, md5: true }), { setup: OWN_B }),
  s('bucket.cors.get', GET('/{b}?cors'), { setup: [...OWN_B, PUT('/{b}?cors', { body: CORS, md5: true })] }),
  s('bucket.cors.delete', DELETE('/{b}?cors'), { setup: OWN_B }),
  s('bucket.cors.preflight-none', { method: 'OPTIONS', path: '/{f:objects}/obj', as: 'anonymous', headers: { Origin: 'http://example.com', 'Access-Control-Request-Method': 'GET' } }),
  s('bucket.lifecycle.put', PUT('/{b}?lifecycle', { body: LIFECYCLE, md5: true }), { setup: OWN_B }),
  s('bucket.lifecycle.delete', DELETE('/{b}?lifecycle'), { setup: OWN_B }),
  s('bucket.tagging.put', PUT('/{b}?tagging', { body: TAGGING, md5: true }), { setup: OWN_B }),
  s('bucket.tagging.get', GET('/{b}?tagging'), { setup: [...OWN_B, PUT('/{b}?tagging', { body: TAGGING, md5: true })] }),
  s('bucket.tagging.delete', DELETE('/{b}?tagging'), { setup: OWN_B }),
  s('bucket.website.put', PUT('/{b}?website', { body: xmlDoc(`<WebsiteConfiguration xmlns="${S3NS}"><IndexDocument><Suffix>index.html</Suffix></IndexDocument></WebsiteConfiguration>`) }), { setup: OWN_B }),
  s('bucket.encryption.put', PUT('/{b}?encryption', { md5: true, body: xmlDoc(`<ServerSideEncryptionConfiguration xmlns="${S3NS}"><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256</SSEAlgorithm></ApplyServerSideEncryptionByDefault></Rule></ServerSideEncryptionConfiguration>`) }), { setup: OWN_B }),
  s('bucket.unknown-subresource', GET('/{f:objects}?frobnicate')),
];
