// The whole corpus, in the order rows run (a row's position also names its containers and buckets).
// Add a row to the table of its area; see the README's "Differential suite".
import type { Row } from '../types.js';
import { NATIVE_ACCOUNT_ROWS } from './native-account.js';
import { NATIVE_CORS_ROWS } from './native-cors.js';
import { NATIVE_LARGE_ROWS } from './native-large.js';
import { NATIVE_LINK_ROWS } from './native-links.js';
import { NATIVE_LISTING_ROWS } from './native-listing.js';
import { NATIVE_OBJECT_ROWS } from './native-objects.js';
import { NATIVE_UPLOAD_ROWS } from './native-upload.js';
import { NATIVE_UTF8_ROWS } from './native-utf8.js';
import { NATIVE_VERSIONS_ROWS } from './native-versions.js';
import { S3_BUCKET_ROWS } from './s3-buckets.js';
import { S3_CONFIG_ROWS } from './s3-config.js';
import { S3_COPY_MULTIPART_ROWS } from './s3-copy-multipart.js';
import { S3_CHECKSUM_ROWS, S3_DATA_ROWS } from './s3-data.js';
import { S3_LISTING_ROWS } from './s3-listing.js';
import { S3_LOCK_ROWS } from './s3-lock.js';
import { S3_OBJECT_ROWS } from './s3-objects.js';
import { S3_POST_ROWS } from './s3-post.js';
import { S3_VERSIONS_ACCESS_ROWS } from './s3-versions-access.js';

export const CORPUS: Row[] = [
  ...NATIVE_ACCOUNT_ROWS,
  ...NATIVE_LISTING_ROWS,
  ...NATIVE_OBJECT_ROWS,
  ...NATIVE_UTF8_ROWS,
  ...NATIVE_LARGE_ROWS,
  ...NATIVE_UPLOAD_ROWS,
  ...NATIVE_CORS_ROWS,
  ...NATIVE_VERSIONS_ROWS,
  ...NATIVE_LINK_ROWS,
  ...S3_BUCKET_ROWS,
  ...S3_LISTING_ROWS,
  ...S3_OBJECT_ROWS,
  ...S3_COPY_MULTIPART_ROWS,
  ...S3_VERSIONS_ACCESS_ROWS,
  ...S3_CONFIG_ROWS,
  ...S3_DATA_ROWS,
  ...S3_CHECKSUM_ROWS,
  ...S3_LOCK_ROWS,
  ...S3_POST_ROWS,
];

const seen = new Set<string>();
for (const row of CORPUS) {
  if (seen.has(row.id)) throw new Error(`corpus: row id ${row.id} is used twice`);
  if (!row.id.startsWith(`${row.api}.`) && !(row.api === 's3' && row.id.startsWith('s3.'))) throw new Error(`corpus: row ${row.id} must start with its API`);
  seen.add(row.id);
}
