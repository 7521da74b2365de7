// What a Swift account's HEAD says about it, and the public-read switch of its containers.
import type { AccountSummary } from '../../../src-shared/model/storage.js';
import type { SwiftClient } from './client.js';
import { headerToText } from './headers.js';
import { header } from './http.js';

/** Swift's public-read ACL items (§11.1): objects readable by anyone, and the listing too. */
const PUBLIC_ITEMS = ['.r:*', '.rlistings'];

/**
 * The account's name: the storage URL's last segment (`AUTH_test` is `test`). Ceph RGW's URL
 * ends at `/swift/v1`, the account being the signed-in user's: then it is the user's part of
 * `<user>:<subuser>`.
 */
export function accountId(storageUrl: string, displayName: string | null): string {
  const last = storageUrl.replace(/[?#].*$/, '').replace(/\/+$/, '').split('/').pop() ?? '';
  if (/^v1(\.0)?$/.test(last)) return displayName?.split(':')[0] || last;
  let id = last;
  try {
    id = decodeURIComponent(last);
  } catch {
    // Not percent-encoded after all: keep it as given.
  }
  return id.replace(/^(AUTH_|KEY_)/, '');
}

/** The account's id, usage and quota from its HEAD (counts a cluster does not send are null). */
export async function accountSummary(client: SwiftClient): Promise<AccountSummary> {
  const { headers } = await client.call({ method: 'HEAD', what: 'Account' });
  const num = (name: string) => {
    const v = header(headers, name);
    return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : null;
  };
  const actual = num('x-account-bytes-used-actual');
  const displayName = client.sessions.peek()?.displayName ?? null;
  return {
    id: accountId(await client.storageUrl(), displayName),
    displayName,
    usage: {
      objects: num('x-account-object-count'),
      bytes: num('x-account-bytes-used'),
      containers: num('x-account-container-count'),
      // Ceph RGW's rounded figure, the one its quota counts; Swift sends none and counts plain bytes.
      ...(actual !== null ? { quotaBytes: actual } : {}),
    },
    quota: {
      maxBytes: num('x-account-meta-quota-bytes') ?? num('x-account-quota-bytes'),
      maxObjects: num('x-account-meta-quota-count') ?? num('x-account-quota-count'),
    },
  };
}

/** Container read ACL `.r:*,.rlistings` on or off; other grants in the ACL are kept. */
export async function setContainerPublic(client: SwiftClient, container: string, on: boolean): Promise<void> {
  const { headers } = await client.call({ method: 'HEAD', container });
  const current = headerToText(header(headers, 'x-container-read') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !PUBLIC_ITEMS.includes(s.replace(/^\.(ref|referer|referrer):/, '.r:').replace(/\s+/g, '')));
  const items = on ? [...current, ...PUBLIC_ITEMS] : current;
  await client.call({
    method: 'POST',
    container,
    // An empty value clears the ACL on Swift and Ceph RGW alike; RGW ignores X-Remove-Container-Read.
    headers: { 'X-Container-Read': items.join(',') },
    idempotent: true,
    what: `Access of ${container}`,
  });
}
