import type { EngineContext } from '../context.js';
import { cidBytes, nameBytesOf } from '../index/keys.js';
import type { ContainerRef } from '../types.js';
import { requireContainer } from './containers.js';
import type { UploadInfo } from './multipart.js';
import { prefixCanMatch } from './name-limits.js';

export interface UploadPage {
  uploads: UploadInfo[];
  /** Common prefixes when a delimiter was given (S3 ListMultipartUploads). */
  prefixes: string[];
  truncated: boolean;
  /**
   * Where the next page starts, when truncated: the last upload's name and id, or the last
   * common prefix alone when that came last (S3's NextKeyMarker and NextUploadIdMarker).
   */
  nextKeyMarker?: string;
  nextUploadIdMarker?: string;
}

/**
 * Unfinished uploads by name, then by start time. Uploads are few (each is a transfer in
 * progress), so the walk simply skips names rolled into a common prefix instead of seeking.
 */
export function listUploads(
  ctx: EngineContext,
  ref: ContainerRef,
  p: { prefix?: string; delimiter?: string; keyMarker?: string; uploadIdMarker?: string; limit?: number } = {},
): UploadPage {
  const c = requireContainer(ctx, ref);
  const base = cidBytes(c.cid);
  const prefix = Buffer.from(p.prefix ?? '', 'utf8');
  const delimiter = p.delimiter ? Buffer.from(p.delimiter, 'utf8') : undefined;
  const marker = p.keyMarker !== undefined ? Buffer.from(p.keyMarker, 'utf8') : undefined;
  const limit = Math.min(p.limit ?? 1000, 1000);
  const page: UploadPage = { uploads: [], prefixes: [], truncated: false };
  if (!prefixCanMatch(prefix)) return page;
  const full = () => page.uploads.length + page.prefixes.length >= limit;
  const truncated = (): UploadPage => {
    page.truncated = true;
    if (last) page.nextKeyMarker = last.name;
    if (last?.uploadId !== undefined) page.nextUploadIdMarker = last.uploadId;
    return page;
  };
  let last: { name: string; uploadId?: string } | undefined;
  let lastPrefix: Buffer | undefined;
  for (const { key, value } of ctx.store.uploads.getRange({ start: Buffer.concat([base, prefix]), end: cidBytes(c.cid + 1) })) {
    const nameBytes = nameBytesOf(key);
    if (!nameBytes.subarray(0, prefix.length).equals(prefix)) break;
    const at = delimiter ? nameBytes.indexOf(delimiter, prefix.length) : -1;
    if (delimiter && at >= 0) {
      const cp = nameBytes.subarray(0, at + delimiter.length);
      if (lastPrefix?.equals(cp) || (marker && Buffer.compare(cp, marker) <= 0)) continue;
      if (full()) return truncated();
      page.prefixes.push(cp.toString('utf8'));
      last = { name: page.prefixes.at(-1)! };
      lastPrefix = cp;
      continue;
    }
    if (marker) {
      const cmp = Buffer.compare(nameBytes, marker);
      if (cmp < 0 || (cmp === 0 && (p.uploadIdMarker === undefined || value.uploadId <= p.uploadIdMarker))) continue;
    }
    if (full()) return truncated();
    const upload = { uploadId: value.uploadId, name: nameBytes.toString('utf8'), initiated: value.initiated };
    page.uploads.push(upload);
    last = upload;
  }
  return page;
}
