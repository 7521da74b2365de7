import { S3Error } from './errors.js';
import type { RequestHeaders } from './params.js';

/**
 * Server-side encryption is refused, never accepted and ignored: Coffer stores bytes as sent, so
 * an "encrypted" object would sit in clear on the disk, and an SSE-C one would be served to anyone
 * without its key.
 *
 * SSE-C (`x-amz-server-side-encryption-customer-*`, `x-amz-copy-source-server-side-encryption-customer-*`):
 * AWS, RGW and MinIO refuse the key on a connection without TLS, where it has already travelled
 * in clear; Coffer serves plain HTTP, so that is the answer. SSE-S3 and SSE-KMS
 * (`x-amz-server-side-encryption` and its `-aws-kms-key-id`, `-context`, `-bucket-key-enabled`):
 * not implemented, 501 naming the header as AWS's NotImplemented does (MinIO without a KMS answers
 * 501 NotImplemented too).
 */
const SSE = 'x-amz-server-side-encryption';
const SSE_C = `${SSE}-customer-`;
const COPY_SSE_C = 'x-amz-copy-source-server-side-encryption-customer-';

/** The refusal of a request asking for server-side encryption in a header, or in a presigned URL's query. */
export function encryptionRefusal(headers: RequestHeaders, query: Map<string, string>, rawQuery: string): S3Error | undefined {
  let customer = false;
  let implied: string | undefined;
  const see = (name: string) => {
    if (name.startsWith(SSE_C) || name.startsWith(COPY_SSE_C)) customer = true;
    else if (name.startsWith(SSE)) implied ??= name;
  };
  for (const name in headers) see(name);
  // Presigners hoist x-amz-* headers into the query string, where AWS reads them as headers.
  if (rawQuery.includes('ncryption')) for (const name of query.keys()) see(name.toLowerCase());
  if (customer) return new S3Error(400, 'InvalidRequest', 'Requests specifying Server Side Encryption with Customer provided keys must be made over a secure connection.');
  if (implied) return new S3Error(501, 'NotImplemented', 'A header you provided implies functionality that is not implemented', { Header: implied });
  return undefined;
}
