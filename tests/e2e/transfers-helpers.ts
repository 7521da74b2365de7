// Shared by the transfers specs: a container of the test's own, files dropped the way the OS
// drops them (a DataTransfer built in the page), and the server's view of what arrived.
import { createHash } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect, rpc } from './support/fixtures.js';

export const md5 = (bytes: string | Buffer) => createHash('md5').update(bytes).digest('hex');

/** A fresh container on an account (the local store unless told), created behind the UI's back. */
export async function ownContainer(page: Page, tag: string, account = 'local'): Promise<string> {
  const name = `xfer-${tag}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  await rpc(page, 'browse.createContainer', { account, container: name });
  return name;
}

/** Reloads the app so lists fetched before a change behind its back show it. */
export async function reloadApp(page: Page): Promise<void> {
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: /Local store/ })).toBeVisible();
}

/** Drops files (name and text body; names may hold folders) on an element, as the OS would. */
export async function dropFiles(page: Page, target: Locator, files: { name: string; body: string }[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.body], f.name, { type: 'application/octet-stream' }));
    return dt;
  }, files);
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

export interface Head {
  size: number;
  etag: string;
}

export async function head(page: Page, container: string, name: string, account = 'local'): Promise<Head> {
  return rpc<Head>(page, 'browse.head', { account, container, name });
}

/** Every object name under a prefix (no delimiter), as the server lists them. */
export async function objectNames(page: Page, container: string, prefix = '', account = 'local'): Promise<string[]> {
  const listing = await rpc<{ entries: ({ kind: 'object'; name: string } | { kind: 'folder'; prefix: string })[] }>(page, 'browse.listFolder', { account, container, prefix, delimiter: '' });
  return listing.entries.flatMap((e) => (e.kind === 'object' ? [e.name] : []));
}

export function transfersPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Transfers' });
}

/**
 * Items of the transfers panel by object name and container (the queue is the server's, shared
 * with every other test); the newest batch comes first.
 */
export function transferItem(page: Page, name: string, container: string): Locator {
  return transfersPanel(page).getByRole('listitem', { name, exact: true }).filter({ hasText: container });
}

export function folderActions(page: Page): Locator {
  return page.getByRole('toolbar', { name: 'Folder actions' });
}

export async function clearFinished(page: Page): Promise<void> {
  await rpc(page, 'transfers.clearFinished', {});
}

/**
 * Uploads a local file through "Upload files" with the browser's own upload throttled, so the
 * upload is surely still running when a test acts on it; `unthrottle` lifts the limit.
 */
export async function startThrottledUpload(page: Page, path: string, bytesPerSecond: number): Promise<{ unthrottle(): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  const chooser = page.waitForEvent('filechooser');
  await folderActions(page).getByRole('button', { name: 'Upload files' }).click();
  await (await chooser).setFiles(path);
  return {
    unthrottle: async () => {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    },
  };
}
