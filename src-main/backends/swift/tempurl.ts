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
 * A TempURL for GET (§12.2): HMAC-SHA256 over `GET\n<expires>\n<path>`, the path being the
 * decoded URL path of the object as the server sees it (storage URL path included: `/v1/AUTH_…`,
 * or `/swift/v1/AUTH_…` on RGW, which accepts both).
 */
export function signTempUrl(storageUrl: string, container: string, name: string, key: string, expires: number): string {
  const { origin, path } = SwiftClient.pathOf(storageUrl, container, name);
  const signedPath = decodeURIComponent(path);
  const sig = createHmac('sha256', key).update(`GET\n${expires}\n${signedPath}`).digest('hex');
  return `${origin}${path}?temp_url_sig=${sig}&temp_url_expires=${expires}`;
}
