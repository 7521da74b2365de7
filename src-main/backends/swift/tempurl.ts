import { createHmac, randomBytes } from 'node:crypto';
import { CofferError } from '../../../src-shared/errors.js';
import { SwiftClient } from './client.js';
import { header } from './http.js';
import { headerToText } from './headers.js';

async function readKey(client: SwiftClient): Promise<string | undefined> {
  const reply = await client.call({ method: 'HEAD', what: 'Account' });
  const key = header(reply.headers, 'x-account-meta-temp-url-key') ?? header(reply.headers, 'x-account-meta-temp-url-key-2');
  return key ? headerToText(key) : undefined;
}

/**
 * The account's TempURL key (§12.1), set to a random one when the account has none. A share
 * link can only be signed with a key the server holds, and without this the user would have to
 * set one with another tool first. Setting key 1 where none exists breaks no earlier link;
 * an existing key is always reused, never replaced. After writing, the key is read back, so two
 * apps racing to create one end up signing with whichever the server kept.
 */
export async function accountTempUrlKey(client: SwiftClient): Promise<string> {
  const existing = await readKey(client);
  if (existing) return existing;
  await client.call({
    method: 'POST',
    headers: { 'X-Account-Meta-Temp-URL-Key': randomBytes(32).toString('hex') },
    idempotent: true,
    what: 'Setting the account TempURL key',
  });
  const stored = await readKey(client);
  if (!stored) throw new CofferError('RemoteError', 'The server did not keep the TempURL key set for share links');
  return stored;
}

/**
 * The digest to sign with: SHA-256 where /info lists it (Swift 2.30, Coffer), else the strongest
 * listed; SHA-1 where /info lists no digests, as TempURL before `allowed_digests` (Ceph RGW 16.2
 * checks SHA-1 only, and refuses a SHA-256 signature with 403), and SHA-256 when /info is unknown.
 */
export function tempUrlDigest(tempurl: { allowed_digests?: string[] } | undefined, infoKnown: boolean): 'sha1' | 'sha256' | 'sha512' {
  const listed = tempurl?.allowed_digests;
  if (!listed) return infoKnown && tempurl ? 'sha1' : 'sha256';
  return (['sha256', 'sha512', 'sha1'] as const).find((d) => listed.includes(d)) ?? 'sha256';
}

/**
 * A TempURL for GET (§12.2): an HMAC over `GET\n<expires>\n<path>`, the path being the decoded
 * URL path of the object as the server sees it (storage URL path included: `/v1/AUTH_…`, or
 * `/swift/v1/…` on RGW, which accepts both).
 */
export function signTempUrl(storageUrl: string, container: string, name: string, key: string, expires: number, digest: 'sha1' | 'sha256' | 'sha512' = 'sha256'): string {
  const { origin, path } = SwiftClient.pathOf(storageUrl, container, name);
  const signedPath = decodeURIComponent(path);
  const sig = createHmac(digest, key).update(`GET\n${expires}\n${signedPath}`).digest('hex');
  return `${origin}${path}?temp_url_sig=${sig}&temp_url_expires=${expires}`;
}
