// Uploads and downloads where the two transports differ. In the desktop app only file paths
// cross the contract (main reads the files); in the browser build each File streams to
// /_coffer/upload. Feature code calls these functions and never asks which transport is in use,
// except to offer what only the desktop shell can do (native dialogs, dragging files out).
import type { ConflictPolicy, TransferItem, UploadPlan, UploadStart } from '../../src-shared/contract/transfers';
import { api } from './client';
import { browserUpload, downloadUrl as httpDownloadUrl, zipUrl, type UploadAnswerListener } from './http-uploads';

export { zipUrl };

/** Where an upload goes: a container and a folder in it ('' or ending in '/'). */
export interface UploadTarget {
  account: string;
  container: string;
  prefix: string;
}

/** What the user picked or dropped: local paths (desktop) or browser files with their relative paths. */
export type UploadSource = { kind: 'paths'; paths: string[] } | { kind: 'files'; files: BrowserFile[] };

export interface BrowserFile {
  /** Folders kept: "photos/2024/a.jpg" for a dropped folder "photos". */
  relativePath: string;
  file: File;
}

/** True in the desktop app: native dialogs, file paths and OS drags are there. */
export function hasDesktopShell(): boolean {
  return window.coffer !== undefined;
}

/** Files from an <input type=file> (webkitdirectory inputs give each file its relative path). */
export function sourceFromInput(files: FileList | readonly File[]): UploadSource {
  const list = [...files];
  if (window.coffer) return { kind: 'paths', paths: list.map((f) => window.coffer!.pathForFile(f)).filter(Boolean) };
  return { kind: 'files', files: list.map((file) => ({ relativePath: file.webkitRelativePath || file.name, file })) };
}

/** What was dropped from the OS: files and whole folders. */
export async function sourceFromDrop(data: DataTransfer): Promise<UploadSource> {
  if (window.coffer) {
    // The desktop bridge resolves folders to their path too; main walks them.
    const bridge = window.coffer;
    return { kind: 'paths', paths: [...data.files].map((f) => bridge.pathForFile(f)).filter(Boolean) };
  }
  return { kind: 'files', files: await filesFromDataTransfer(data) };
}

/** True when a drag carries files from outside (not, say, a row dragged within the app). */
export function carriesFiles(data: DataTransfer | null): boolean {
  return !!data && [...data.types].includes('Files');
}

export function isEmptySource(source: UploadSource): boolean {
  return source.kind === 'paths' ? source.paths.length === 0 : source.files.length === 0;
}

export function planUpload(target: UploadTarget, source: UploadSource): Promise<UploadPlan> {
  return source.kind === 'paths'
    ? api.transfers.planUpload({ ...target, paths: source.paths })
    : api.transfers.planUpload({ ...target, files: source.files.map((f) => ({ relativePath: f.relativePath, size: f.file.size })) });
}

/**
 * Starts a planned batch. Browser files are then sent in the background, a few at a time; their
 * progress and outcome arrive as transfer events like any other item's.
 */
export async function startUpload(plan: UploadPlan, conflict: ConflictPolicy, source: UploadSource): Promise<UploadStart> {
  const started = await api.transfers.startUpload({ batchId: plan.batchId, conflict });
  if (source.kind === 'files') {
    const byPath = new Map(source.files.map((f) => [f.relativePath, f.file]));
    for (const item of started.items) {
      const file = byPath.get(item.relativePath);
      if (file) browserUpload.send(item.id, file);
    }
  }
  return started;
}

/** Cancels items; a browser upload's request is aborted too, so its bytes stop flowing. */
export async function cancelTransfers(ids?: string[]): Promise<void> {
  await api.transfers.cancel(ids ? { ids } : {});
  browserUpload.abort(ids);
}

/**
 * Retries failed or cancelled items. A browser upload cannot be re-read by the server, so the
 * page sends the file again while it still holds it: to the same item when main put it back in
 * the queue, else as a new one-file upload to the same name (the batch's conflict answer already
 * chose that name).
 */
export async function retryTransfers(ids?: string[]): Promise<void> {
  await api.transfers.retry(ids ? { ids } : {});
  if (hasDesktopShell()) return;
  const wanted = ids ? new Set(ids) : null;
  const { items } = await api.transfers.list({});
  for (const item of items) {
    if (!browserUpload.holds(item.id) || (wanted && !wanted.has(item.id))) continue;
    if (item.state === 'queued') browserUpload.resend([item.id]);
    else if (item.state === 'failed' || item.state === 'cancelled') await uploadAgain(item);
  }
}

/**
 * Pauses items. A browser upload's request is aborted once main has marked it paused (aborted
 * first, main would see a client that went away and fail it), so its bytes stop flowing.
 */
export async function pauseTransfers(ids?: string[]): Promise<void> {
  await api.transfers.pause(ids ? { ids } : {});
  if (!hasDesktopShell()) browserUpload.abort(ids);
}

/** Resumes items; a paused browser upload is sent again from the page that holds its file. */
export async function resumeTransfers(ids?: string[]): Promise<void> {
  await api.transfers.resume(ids ? { ids } : {});
  if (hasDesktopShell()) return;
  const wanted = ids ? new Set(ids) : null;
  const { items } = await api.transfers.list({});
  const queued = items.filter((i) => i.state === 'queued' && browserUpload.holds(i.id) && (!wanted || wanted.has(i.id)));
  browserUpload.resend(queued.map((i) => i.id));
}

async function uploadAgain(item: TransferItem): Promise<void> {
  const file = browserUpload.release(item.id);
  if (!file) return;
  const { account, container, name } = item;
  const plan = await api.transfers.planUpload({ account, container, prefix: '', files: [{ relativePath: name, size: file.size }] });
  const started = await api.transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' });
  for (const s of started.items) browserUpload.send(s.id, file);
}

/**
 * Tells the listener why the server refused this page's upload of an item before taking its bytes,
 * or did not answer (the item's own failures arrive in its events), and null when it is sent again.
 */
export function onUploadAnswer(listener: UploadAnswerListener): () => void {
  return browserUpload.onAnswer(listener);
}

/** Whether this page can send an item's bytes again (browser uploads started in this page). */
export function canResend(id: string): boolean {
  return hasDesktopShell() || browserUpload.holds(id);
}

/** The browser build's download address of one object (an attachment, same session). */
export function downloadUrl(account: string, container: string, name: string): string {
  return httpDownloadUrl(account, container, name);
}

// Chromium gives a dropped folder as an entry to walk; a synthetic DataTransfer (and older
// browsers) only have files, whose relative path is their name.
async function filesFromDataTransfer(data: DataTransfer): Promise<BrowserFile[]> {
  // Other apps may add text items next to the files; only the file items matter.
  const fileItems = [...data.items].filter((item) => item.kind === 'file');
  const entries = fileItems.map((item) => (typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null));
  if (entries.length === 0 || entries.some((e) => e === null)) {
    return [...data.files].map((file) => ({ relativePath: file.webkitRelativePath || file.name, file }));
  }
  const out: BrowserFile[] = [];
  for (const entry of entries) await walk(entry!, '', out);
  return out;
}

async function walk(entry: FileSystemEntry, parent: string, out: BrowserFile[]): Promise<void> {
  const path = parent + entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ relativePath: path, file });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in chunks (100 in Chromium) until it returns none.
  for (;;) {
    const chunk = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (chunk.length === 0) break;
    for (const child of chunk) await walk(child, `${path}/`, out);
  }
}
