// S3 API: versioned buckets (versions, delete markers, suspended versioning), ACLs (canned and
// grants, bucket and object), bucket policies and what they let other users and anonymous do.
import type { Req, Row } from '../types.js';
import { DELETE, GET, HEAD, OWN_B, OWN_B_OBJ, POST, PUT, s, S3NS, xmlDoc } from './helpers.js';

const versioning = (status: string): Req => PUT('/{b}?versioning', { body: xmlDoc(`<VersioningConfiguration xmlns="${S3NS}"><Status>${status}</Status></VersioningConfiguration>`) });
/** A versioned bucket with two versions of `obj` ({v1}, {v2}). */
const TWO_VERSIONS: Req[] = [
  ...OWN_B,
  versioning('Enabled'),
  PUT('/{b}/obj', { body: 'one', capture: { v1: 'header:x-amz-version-id' } }),
  PUT('/{b}/obj', { body: 'two', capture: { v2: 'header:x-amz-version-id' } }),
];
/** …and a delete marker on top ({marker}). */
const DELETED: Req[] = [...TWO_VERSIONS, DELETE('/{b}/obj', { capture: { marker: 'header:x-amz-version-id' } })];

const policy = (statements: object[]) => JSON.stringify({ Version: '2012-10-17', Statement: statements });
const PUBLIC_READ_POLICY = policy([{ Sid: 'pub', Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*' }]);
const PUBLIC_LIST_POLICY = policy([{ Effect: 'Allow', Principal: '*', Action: 's3:ListBucket', Resource: 'arn:aws:s3:::{b}' }]);
const OTHER_READ_POLICY = policy([{ Effect: 'Allow', Principal: { AWS: 'arn:aws:iam:::user/{other-id}' }, Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*' }]);
const DENY_POLICY = policy([
  { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*' },
  { Effect: 'Deny', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/secret/*' },
]);
const PREFIX_POLICY = policy([{ Effect: 'Allow', Principal: '*', Action: 's3:ListBucket', Resource: 'arn:aws:s3:::{b}', Condition: { StringLike: { 's3:prefix': 'secret/*' } } }]);
const REFERER_POLICY = policy([{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*', Condition: { StringLike: { 'aws:Referer': 'https://example.com/*' } } }]);
const withPolicy = (doc: string): Req[] => [...OWN_B_OBJ, PUT('/{b}/secret/x', { body: 's' }), PUT('/{b}?policy', { body: doc })];

const aclDoc = (grants: string) =>
  xmlDoc(`<AccessControlPolicy xmlns="${S3NS}"><Owner><ID>{owner-id}</ID></Owner><AccessControlList>${grants}</AccessControlList></AccessControlPolicy>`);
const grant = (id: string, permission: string) =>
  `<Grant><Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser"><ID>${id}</ID></Grantee><Permission>${permission}</Permission></Grant>`;
const ALL_USERS_READ = `<Grant><Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Group"><URI>http://acs.amazonaws.com/groups/global/AllUsers</URI></Grantee><Permission>READ</Permission></Grant>`;

export const S3_VERSIONS_ACCESS_ROWS: Row[] = [
  // versioning
  s('versioned.put', PUT('/{b}/obj', { body: 'one' }), { setup: [...OWN_B, versioning('Enabled')] }),
  s('versioned.list', GET('/{b}?versions'), { setup: TWO_VERSIONS }),
  s('versioned.list.deleted', GET('/{b}?versions'), { setup: DELETED }),
  s('versioned.list.max-keys-1', GET('/{b}?versions&max-keys=1'), { setup: TWO_VERSIONS }),
  s('versioned.list.version-marker', GET('/{b}?versions&key-marker=obj&version-id-marker={url:v2}'), { setup: TWO_VERSIONS }),
  s('versioned.list.objects', GET('/{b}?list-type=2'), { setup: TWO_VERSIONS }),
  s('versioned.list.objects-deleted', GET('/{b}?list-type=2'), { setup: DELETED }),
  s('versioned.get.latest', GET('/{b}/obj'), { setup: TWO_VERSIONS }),
  s('versioned.get.old', GET('/{b}/obj?versionId={url:v1}'), { setup: TWO_VERSIONS }),
  s('versioned.head.old', HEAD('/{b}/obj?versionId={url:v1}'), { setup: TWO_VERSIONS }),
  s('versioned.get.null', GET('/{b}/obj?versionId=null'), { setup: TWO_VERSIONS }),
  s('versioned.get.bogus', GET('/{b}/obj?versionId=bogus'), { setup: TWO_VERSIONS }),
  s('versioned.delete', DELETE('/{b}/obj'), { setup: TWO_VERSIONS }),
  s('versioned.get.deleted', GET('/{b}/obj'), { setup: DELETED }),
  s('versioned.head.deleted', HEAD('/{b}/obj'), { setup: DELETED }),
  s('versioned.get.marker', GET('/{b}/obj?versionId={url:marker}'), { setup: DELETED }),
  s('versioned.head.marker', HEAD('/{b}/obj?versionId={url:marker}'), { setup: DELETED }),
  s('versioned.get.old-after-delete', GET('/{b}/obj?versionId={url:v1}'), { setup: DELETED }),
  s('versioned.delete.version', DELETE('/{b}/obj?versionId={url:v1}'), { setup: TWO_VERSIONS }),
  s('versioned.delete.marker', DELETE('/{b}/obj?versionId={url:marker}'), { setup: DELETED }),
  s('versioned.delete.marker-restores', GET('/{b}/obj'), { setup: [...DELETED, DELETE('/{b}/obj?versionId={url:marker}')] }),
  s('versioned.delete.missing-key', DELETE('/{b}/nope'), { setup: TWO_VERSIONS }),
  s('versioned.copy.old', PUT('/{b}/dst', { headers: { 'x-amz-copy-source': '/{b}/obj?versionId={url:v1}' } }), { setup: TWO_VERSIONS }),
  s('versioned.copy.old-read-back', GET('/{b}/dst'), { setup: [...TWO_VERSIONS, PUT('/{b}/dst', { headers: { 'x-amz-copy-source': '/{b}/obj?versionId={url:v1}' } })] }),
  s('versioned.copy.marker', PUT('/{b}/dst', { headers: { 'x-amz-copy-source': '/{b}/obj?versionId={url:marker}' } }), { setup: DELETED }),
  s('versioned.delete-objects.version', POST('/{b}?delete', { md5: true, body: xmlDoc(`<Delete xmlns="${S3NS}"><Object><Key>obj</Key><VersionId>{v1}</VersionId></Object></Delete>`) }), { setup: TWO_VERSIONS }),
  s('versioned.delete-objects.marker', POST('/{b}?delete', { md5: true, body: xmlDoc(`<Delete xmlns="${S3NS}"><Object><Key>obj</Key></Object></Delete>`) }), { setup: TWO_VERSIONS }),
  s('versioned.bucket-delete', DELETE('/{b}'), { setup: DELETED }),
  s('suspended.put', PUT('/{b}/obj', { body: 'three' }), { setup: [...TWO_VERSIONS, versioning('Suspended')] }),
  s('suspended.list', GET('/{b}?versions'), { setup: [...TWO_VERSIONS, versioning('Suspended'), PUT('/{b}/obj', { body: 'three' }), PUT('/{b}/obj', { body: 'four' })] }),
  s('suspended.delete', DELETE('/{b}/obj'), { setup: [...TWO_VERSIONS, versioning('Suspended')] }),
  s('suspended.get-null', GET('/{b}/obj?versionId=null'), { setup: [...TWO_VERSIONS, versioning('Suspended'), PUT('/{b}/obj', { body: 'three' })] }),
  s('versioned.multipart', POST('/{b}/mp?uploadId={url:upload}', { body: xmlDoc(`<CompleteMultipartUpload xmlns="${S3NS}"><Part><PartNumber>1</PartNumber><ETag>{etag}</ETag></Part></CompleteMultipartUpload>`) }), {
    setup: [...OWN_B, versioning('Enabled'), POST('/{b}/mp?uploads', { capture: { upload: 'xml:UploadId' } }), PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'p', capture: { etag: 'header:etag' } })],
  }),

  // ACLs
  s('acl.bucket.get', GET('/{f:objects}?acl')),
  s('acl.bucket.get-other', GET('/{f:objects}?acl', { as: 'other' })),
  s('acl.bucket.put-canned', PUT('/{b}?acl', { headers: { 'x-amz-acl': 'public-read' } }), { setup: OWN_B }),
  s('acl.bucket.public-read', GET('/{b}?acl'), { setup: [...OWN_B, PUT('/{b}?acl', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.bucket.public-read-write', GET('/{b}?acl'), { setup: [...OWN_B, PUT('/{b}?acl', { headers: { 'x-amz-acl': 'public-read-write' } })] }),
  s('acl.bucket.authenticated-read', GET('/{b}?acl'), { setup: [...OWN_B, PUT('/{b}?acl', { headers: { 'x-amz-acl': 'authenticated-read' } })] }),
  s('acl.bucket.canned-bogus', PUT('/{b}?acl', { headers: { 'x-amz-acl': 'everyone' } }), { setup: OWN_B }),
  s('acl.bucket.put-xml', PUT('/{b}?acl', { body: aclDoc(grant('{owner-id}', 'FULL_CONTROL') + ALL_USERS_READ) }), { setup: OWN_B }),
  s('acl.bucket.put-xml-read-back', GET('/{b}?acl'), { setup: [...OWN_B, PUT('/{b}?acl', { body: aclDoc(grant('{owner-id}', 'FULL_CONTROL') + grant('{other-id}', 'READ')) })] }),
  s('acl.bucket.put-malformed', PUT('/{b}?acl', { body: '<AccessControlPolicy>' }), { setup: OWN_B }),
  s('acl.bucket.grant-header', GET('/{b}?acl'), { setup: [...OWN_B, PUT('/{b}?acl', { headers: { 'x-amz-grant-read': 'id="{other-id}"' } })] }),
  s('acl.bucket.public-list-anonymous', GET('/{b}', { as: 'anonymous' }), { setup: [...OWN_B_OBJ, PUT('/{b}?acl', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.bucket.public-object-anonymous', GET('/{b}/obj', { as: 'anonymous' }), { setup: [...OWN_B_OBJ, PUT('/{b}?acl', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.bucket.public-read-write-put', PUT('/{b}/anon', { as: 'anonymous', body: 'x' }), { setup: [...OWN_B, PUT('/{b}?acl', { headers: { 'x-amz-acl': 'public-read-write' } })] }),
  s('acl.bucket.other-read-list', GET('/{b}', { as: 'other' }), { setup: [...OWN_B_OBJ, PUT('/{b}?acl', { headers: { 'x-amz-grant-read': 'id="{other-id}"' } })] }),
  s('acl.object.get', GET('/{f:objects}/obj?acl')),
  s('acl.object.put-canned', PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'public-read' } }), { setup: OWN_B_OBJ }),
  s('acl.object.public-read', GET('/{b}/obj?acl'), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.object.public-anonymous', GET('/{b}/obj', { as: 'anonymous' }), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.object.public-anonymous-head', HEAD('/{b}/obj', { as: 'anonymous' }), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.object.public-anonymous-list', GET('/{b}', { as: 'anonymous' }), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.object.keeps-last-modified', HEAD('/{b}/obj'), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.object.put-xml', PUT('/{b}/obj?acl', { body: aclDoc(grant('{owner-id}', 'FULL_CONTROL') + grant('{other-id}', 'READ')) }), { setup: OWN_B_OBJ }),
  s('acl.object.other-granted', GET('/{b}/obj', { as: 'other' }), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-grant-read': 'id="{other-id}"' } })] }),
  s('acl.object.missing', PUT('/{b}/nope?acl', { headers: { 'x-amz-acl': 'public-read' } }), { setup: OWN_B }),
  s('acl.object.other-denied', GET('/{b}/obj?acl', { as: 'other' }), { setup: OWN_B_OBJ }),
  // an ACL of one version; the others keep theirs, and no version is made
  s('acl.object.version-put', PUT('/{b}/obj?acl&versionId={url:v1}', { headers: { 'x-amz-acl': 'public-read' } }), { setup: TWO_VERSIONS }),
  s('acl.object.version-get', GET('/{b}/obj?acl&versionId={url:v1}'), { setup: [...TWO_VERSIONS, PUT('/{b}/obj?acl&versionId={url:v1}', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.object.version-latest-kept', GET('/{b}/obj?acl'), { setup: [...TWO_VERSIONS, PUT('/{b}/obj?acl&versionId={url:v1}', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.object.version-anonymous', GET('/{b}/obj?versionId={url:v1}', { as: 'anonymous' }), { setup: [...TWO_VERSIONS, PUT('/{b}/obj?acl&versionId={url:v1}', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.object.version-latest-anonymous', GET('/{b}/obj', { as: 'anonymous' }), { setup: [...TWO_VERSIONS, PUT('/{b}/obj?acl&versionId={url:v1}', { headers: { 'x-amz-acl': 'public-read' } })] }),
  s('acl.object.version-list', GET('/{b}?versions'), { setup: [...TWO_VERSIONS, PUT('/{b}/obj?acl&versionId={url:v1}', { headers: { 'x-amz-acl': 'public-read' } })] }),
  // every canned ACL, grant headers, grants enforced for their grantee
  s('acl.object.authenticated-read', GET('/{b}/obj?acl'), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'authenticated-read' } })] }),
  s('acl.object.authenticated-read-other', GET('/{b}/obj', { as: 'other' }), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'authenticated-read' } })] }),
  s('acl.object.authenticated-read-anonymous', GET('/{b}/obj', { as: 'anonymous' }), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'authenticated-read' } })] }),
  s('acl.object.public-read-write', GET('/{b}/obj?acl'), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'public-read-write' } })] }),
  s('acl.object.grant-email', PUT('/{b}/obj?acl', { headers: { 'x-amz-grant-read': 'emailAddress="nobody@example.com"' } }), { setup: OWN_B_OBJ }),
  s('acl.object.grant-headers-read-back', GET('/{b}/obj?acl'), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-grant-read': 'id="{other-id}"', 'x-amz-grant-full-control': 'id="{owner-id}"' } })] }),
  s('acl.object.other-read-acp', GET('/{b}/obj?acl', { as: 'other' }), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-grant-read-acp': 'id="{other-id}"', 'x-amz-grant-full-control': 'id="{owner-id}"' } })] }),
  s('acl.object.other-read-acp-no-read', GET('/{b}/obj', { as: 'other' }), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-grant-read-acp': 'id="{other-id}"', 'x-amz-grant-full-control': 'id="{owner-id}"' } })] }),
  s('acl.bucket.other-write', PUT('/{b}/from-other', { as: 'other', body: 'o' }), { setup: [...OWN_B, PUT('/{b}?acl', { headers: { 'x-amz-grant-write': 'id="{other-id}"', 'x-amz-grant-full-control': 'id="{owner-id}"' } })] }),
  s('acl.bucket.other-write-no-list', GET('/{b}', { as: 'other' }), { setup: [...OWN_B, PUT('/{b}?acl', { headers: { 'x-amz-grant-write': 'id="{other-id}"', 'x-amz-grant-full-control': 'id="{owner-id}"' } })] }),
  s('acl.bucket.public-read-write-list', GET('/{b}', { as: 'anonymous' }), { setup: [...OWN_B_OBJ, PUT('/{b}?acl', { headers: { 'x-amz-acl': 'public-read-write' } })] }),
  s('acl.bucket.public-deleted-key', GET('/{b}/obj', { as: 'anonymous' }), { setup: [...OWN_B_OBJ, PUT('/{b}?acl', { headers: { 'x-amz-acl': 'public-read' } }), PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'public-read' } }), DELETE('/{b}/obj')] }),
  s('acl.copy.grant-read-other', GET('/{b}/dst', { as: 'other' }), { setup: [...OWN_B_OBJ, PUT('/{b}/dst', { headers: { 'x-amz-copy-source': '/{b}/obj', 'x-amz-grant-read': 'id="{other-id}"' } })] }),
  s('acl.copy.source-acl-not-copied', GET('/{b}/dst', { as: 'anonymous' }), { setup: [...OWN_B_OBJ, PUT('/{b}/obj?acl', { headers: { 'x-amz-acl': 'public-read' } }), PUT('/{b}/dst', { headers: { 'x-amz-copy-source': '/{b}/obj' } })] }),
  s('acl.mp.grant-read-other', GET('/{b}/mp', { as: 'other' }), {
    setup: [
      ...OWN_B,
      POST('/{b}/mp?uploads', { headers: { 'x-amz-grant-read': 'id="{other-id}"' }, capture: { upload: 'xml:UploadId' } }),
      PUT('/{b}/mp?partNumber=1&uploadId={url:upload}', { body: 'p', capture: { etag: 'header:etag' } }),
      POST('/{b}/mp?uploadId={url:upload}', { body: xmlDoc(`<CompleteMultipartUpload xmlns="${S3NS}"><Part><PartNumber>1</PartNumber><ETag>{etag}</ETag></Part></CompleteMultipartUpload>`) }),
    ],
  }),

  // bucket policies
  s('policy.get-none', GET('/{f:objects}?policy')),
  s('policy.put', PUT('/{b}?policy', { body: PUBLIC_READ_POLICY }), { setup: OWN_B }),
  s('policy.get', GET('/{b}?policy'), { setup: [...OWN_B, PUT('/{b}?policy', { body: PUBLIC_READ_POLICY })] }),
  s('policy.delete', DELETE('/{b}?policy'), { setup: [...OWN_B, PUT('/{b}?policy', { body: PUBLIC_READ_POLICY })] }),
  s('policy.delete-none', DELETE('/{b}?policy'), { setup: OWN_B }),
  s('policy.put-not-json', PUT('/{b}?policy', { body: 'not json' }), { setup: OWN_B }),
  s('policy.put-no-statement', PUT('/{b}?policy', { body: '{"Version":"2012-10-17"}' }), { setup: OWN_B }),
  s('policy.put-bad-action', PUT('/{b}?policy', { body: policy([{ Effect: 'Allow', Principal: '*', Action: 's3:Frobnicate', Resource: 'arn:aws:s3:::{b}/*' }]) }), { setup: OWN_B }),
  s('policy.put-bad-resource', PUT('/{b}?policy', { body: policy([{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::some-other-bucket/*' }]) }), { setup: OWN_B }),
  s('policy.put-by-other', PUT('/{b}?policy', { as: 'other', body: PUBLIC_READ_POLICY }), { setup: OWN_B }),
  s('policy.status-none', GET('/{f:objects}?policyStatus')),
  s('policy.status-public', GET('/{b}?policyStatus'), { setup: [...OWN_B, PUT('/{b}?policy', { body: PUBLIC_READ_POLICY })] }),
  s('policy.public.anonymous-get', GET('/{b}/obj', { as: 'anonymous' }), { setup: withPolicy(PUBLIC_READ_POLICY) }),
  s('policy.public.anonymous-missing', GET('/{b}/nope', { as: 'anonymous' }), { setup: withPolicy(PUBLIC_READ_POLICY) }),
  s('policy.public.anonymous-list-denied', GET('/{b}', { as: 'anonymous' }), { setup: withPolicy(PUBLIC_READ_POLICY) }),
  s('policy.public.anonymous-put-denied', PUT('/{b}/new', { as: 'anonymous', body: 'x' }), { setup: withPolicy(PUBLIC_READ_POLICY) }),
  s('policy.public.other-get', GET('/{b}/obj', { as: 'other' }), { setup: withPolicy(PUBLIC_READ_POLICY) }),
  s('policy.list.anonymous', GET('/{b}', { as: 'anonymous' }), { setup: withPolicy(PUBLIC_LIST_POLICY) }),
  s('policy.list.anonymous-get-denied', GET('/{b}/obj', { as: 'anonymous' }), { setup: withPolicy(PUBLIC_LIST_POLICY) }),
  s('policy.principal.other-get', GET('/{b}/obj', { as: 'other' }), { setup: withPolicy(OTHER_READ_POLICY) }),
  s('policy.principal.anonymous-denied', GET('/{b}/obj', { as: 'anonymous' }), { setup: withPolicy(OTHER_READ_POLICY) }),
  s('policy.deny.secret', GET('/{b}/secret/x', { as: 'anonymous' }), { setup: withPolicy(DENY_POLICY) }),
  s('policy.deny.other-allowed', GET('/{b}/obj', { as: 'anonymous' }), { setup: withPolicy(DENY_POLICY) }),
  s('policy.deny.owner', GET('/{b}/secret/x'), { setup: withPolicy(DENY_POLICY) }),
  s('policy.list-and-get.anonymous-missing', GET('/{b}/nope', { as: 'anonymous' }), { setup: withPolicy(policy([{ Effect: 'Allow', Principal: '*', Action: ['s3:GetObject', 's3:ListBucket'], Resource: ['arn:aws:s3:::{b}', 'arn:aws:s3:::{b}/*'] }])) }),
  s('policy.principal.other-list', GET('/{b}', { as: 'other' }), { setup: withPolicy(policy([{ Effect: 'Allow', Principal: { AWS: ['arn:aws:iam:::user/{other-id}'] }, Action: 's3:ListBucket', Resource: 'arn:aws:s3:::{b}' }])) }),
  s('policy.principal.other-put', PUT('/{b}/from-other', { as: 'other', body: 'o' }), { setup: withPolicy(policy([{ Effect: 'Allow', Principal: { AWS: ['arn:aws:iam:::user/{other-id}'] }, Action: 's3:PutObject', Resource: 'arn:aws:s3:::{b}/*' }])) }),
  s('policy.not-action.other-put-denied', PUT('/{b}/from-other', { as: 'other', body: 'o' }), {
    setup: withPolicy(policy([{ Effect: 'Allow', Principal: '*', Action: 's3:*', Resource: 'arn:aws:s3:::{b}/*' }, { Effect: 'Deny', Principal: '*', NotAction: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*' }])),
  }),
  s('policy.condition.prefix-allowed', GET('/{b}?list-type=2&prefix=secret/', { as: 'anonymous' }), { setup: withPolicy(PREFIX_POLICY) }),
  s('policy.condition.prefix-denied', GET('/{b}?list-type=2&prefix=other/', { as: 'anonymous' }), { setup: withPolicy(PREFIX_POLICY) }),
  s('policy.condition.prefix-absent', GET('/{b}?list-type=2', { as: 'anonymous' }), { setup: withPolicy(PREFIX_POLICY) }),
  s('policy.condition.referer-allowed', GET('/{b}/obj', { as: 'anonymous', headers: { Referer: 'https://example.com/page' } }), { setup: withPolicy(REFERER_POLICY) }),
  s('policy.condition.referer-denied', GET('/{b}/obj', { as: 'anonymous', headers: { Referer: 'https://elsewhere.example/' } }), { setup: withPolicy(REFERER_POLICY) }),
  s('policy.condition.source-ip', GET('/{b}/obj', { as: 'anonymous' }), {
    setup: withPolicy(policy([{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*', Condition: { IpAddress: { 'aws:SourceIp': '127.0.0.0/8' } } }])),
  }),
  s('policy.condition.source-ip-elsewhere', GET('/{b}/obj', { as: 'anonymous' }), {
    setup: withPolicy(policy([{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*', Condition: { IpAddress: { 'aws:SourceIp': '192.0.2.0/24' } } }])),
  }),
  s('policy.put-bad-principal', PUT('/{b}?policy', { body: policy([{ Effect: 'Allow', Principal: { Nobody: 'x' }, Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*' }]) }), { setup: OWN_B }),
  s('policy.put-bad-effect', PUT('/{b}?policy', { body: policy([{ Effect: 'Perhaps', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*' }]) }), { setup: OWN_B }),
  s('policy.put-bad-condition', PUT('/{b}?policy', { body: policy([{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::{b}/*', Condition: { StringFoo: { 's3:prefix': 'x' } } }]) }), { setup: OWN_B }),
];
