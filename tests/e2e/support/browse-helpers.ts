// Helpers the clipboard, context-menu, access, quota and progress specs share: containers of
// their own filled by server-side copies of the seeded archive, and a remote connection to the
// test server's own compatible API (another account as far as the app knows).
import type { Page } from '@playwright/test';
import type { ConnectionInfo } from '../../../src-shared/model/connections.js';
import type { LocalStoreStatus, LocalUser } from '../../../src-shared/contract/local-store.js';
import { expect, grid, rpc } from './fixtures.js';
import { ARCHIVE } from './seed-data.js';

let counter = 0;
/** A container name no other spec or run uses. */
export function uniqueName(label: string): string {
  return `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
}

/** A new local container holding copies of these archive objects and folders (server-side). */
export async function containerWith(page: Page, label: string, from: { names?: string[]; prefixes?: string[] } = {}): Promise<string> {
  const container = uniqueName(label);
  await rpc(page, 'browse.createContainer', { account: 'local', container });
  if (from.names?.length || from.prefixes?.length) {
    await rpc(page, 'browse.paste', { from: { account: 'local', container: ARCHIVE, ...from }, to: { account: 'local', container, prefix: '' } });
  }
  return container;
}

/** Every name in a container under a prefix, flat (folders spelled out by their objects). */
export async function flatNames(page: Page, container: string, prefix = '', account = 'local'): Promise<string[]> {
  const page1 = await rpc<{ entries: ({ kind: 'object'; name: string } | { kind: 'folder'; prefix: string })[] }>(page, 'browse.listFolder', { account, container, prefix, delimiter: '' });
  return page1.entries.map((e) => (e.kind === 'object' ? e.name : e.prefix));
}

/** A remote S3 connection to this very server (same data, reached as another account would be). */
export async function addS3Connection(page: Page, name: string): Promise<ConnectionInfo> {
  const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
  const [user] = await rpc<LocalUser[]>(page, 'localStore.users', {});
  const key = user!.keys[0]!;
  return rpc<ConnectionInfo>(page, 'accounts.add', { name, config: { kind: 's3', endpoint: status.s3Endpoint, accessKeyId: key.accessKey, secretAccessKey: key.secretKey } });
}

export async function pressInGrid(page: Page, keys: string): Promise<void> {
  await grid(page).focus();
  await grid(page).press(keys);
}

export function statusBar(page: Page) {
  return page.getByRole('contentinfo', { name: 'Status bar' });
}

export async function backToContainers(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Location' }).getByRole('button', { name: 'Containers' }).click();
  await expect(page.getByRole('table', { name: 'Containers' })).toBeVisible();
}
