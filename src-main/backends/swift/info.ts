import type { Capabilities } from '../../../src-shared/model/storage.js';
import { drain, readText, type Http } from './http.js';
import { SWIFT_NO_VERSIONS } from './versions.js';

/** The parts of `GET /info` (§13.4) this client acts on. */
export interface SwiftInfo {
  bulk_delete?: { max_deletes_per_request?: number };
  slo?: { max_manifest_segments?: number; min_segment_size?: number };
  tempurl?: { methods?: string[]; allowed_digests?: string[] };
  swift?: { max_file_size?: number; container_listing_limit?: number };
  versioned_writes?: unknown;
  /** Swift 2.24+'s versioning with version ids (`allow_object_versioning`). */
  object_versioning?: unknown;
  container_quotas?: unknown;
}

export const SWIFT_NO_OBJECT_LOCK = 'Swift has no object lock';
export const SWIFT_NO_LIFECYCLE = 'Swift has no lifecycle rules: it expires objects one by one (X-Delete-After, given when an object is written)';
export const SWIFT_NO_CONTAINER_TAGS = 'Swift has no container tags: a container carries metadata (X-Container-Meta-*) instead';
export const SWIFT_NO_CONTAINER_QUOTA = 'This Swift server does not offer container quotas (no container_quotas in its /info)';

/**
 * Where /info lives: next to the `v1` of the storage URL (`/swift/info` on RGW and Coffer), else
 * at the root (`/info` on a Swift proxy). Clusters may hide it; then nothing is known.
 */
export function infoUrls(storageUrl: string): string[] {
  const url = new URL(storageUrl);
  // RGW's storage URL may end at `/swift/v1`, with no account segment.
  const m = /^(.*?)\/v1(?:\.0)?(?:\/[^/]+)?\/?$/.exec(url.pathname);
  const near = m ? `${url.origin}${m[1]}/info` : undefined;
  const root = `${url.origin}/info`;
  return near && near !== root ? [near, root] : [root];
}

/** Fetches /info without a token; undefined when no candidate answers with JSON. */
export async function fetchInfo(http: Http, storageUrl: string, timeoutMs: number): Promise<SwiftInfo | undefined> {
  for (const candidate of infoUrls(storageUrl)) {
    const url = new URL(candidate);
    try {
      const reply = await http.send({ method: 'GET', origin: url.origin, path: url.pathname, headers: { Accept: 'application/json' }, timeoutMs });
      if (reply.status !== 200) {
        await drain(reply.body);
        continue;
      }
      const data = JSON.parse(await readText(reply.body, 4 * 1024 * 1024)) as unknown;
      if (data && typeof data === 'object' && !Array.isArray(data)) return data as SwiftInfo;
    } catch {
      // Not reachable or not JSON: try the next place, then go without.
    }
  }
  return undefined;
}

/**
 * Capabilities from /info where it tells: bulk delete only when advertised (else names are
 * deleted one by one); SLO, TempURL and container quotas assumed when /info is unknown (nearly
 * every cluster has them, and the server's answer to the real request still decides). Versions
 * only with `object_versioning` (version ids); legacy versioning (`X-Versions-Location`) is not
 * offered: the browse model's versions (list/restore by id) do not map onto an archive container.
 */
export function capabilitiesOf(info: SwiftInfo | undefined): Capabilities {
  const versions = info?.object_versioning !== undefined;
  const containerQuota = info === undefined || info.container_quotas !== undefined;
  return {
    versions,
    publicRead: true,
    publicObjects: false,
    shareLinks: info === undefined || info.tempurl !== undefined,
    quota: true,
    serverSideCopy: true,
    bulkDelete: info?.bulk_delete !== undefined,
    multipartUpload: info === undefined || info.slo !== undefined,
    containerQuota,
    objectLock: false,
    lifecycle: false,
    containerTags: false,
    why: {
      objectLock: SWIFT_NO_OBJECT_LOCK,
      lifecycle: SWIFT_NO_LIFECYCLE,
      containerTags: SWIFT_NO_CONTAINER_TAGS,
      ...(versions ? {} : { versions: SWIFT_NO_VERSIONS }),
      ...(containerQuota ? {} : { containerQuota: SWIFT_NO_CONTAINER_QUOTA }),
    },
  };
}
