import { MAX_ACCOUNT_NAME_BYTES, MAX_CONTAINER_NAME_BYTES, MAX_OBJECT_NAME_BYTES } from '../../../../src-shared/names.js';
import { BULK_DELETE_LIMITS, SLO_LIMITS } from '../../../engine/index.js';
import { LISTING_LIMIT } from '../limits.js';
import { META_LIMITS } from '../metadata.js';
import { reply, type NativeCall } from '../respond.js';
import { SYMLINK_INFO } from './symlink.js';
import { TEMPURL } from './tempurl.js';
import { BULK_UPLOAD_LIMITS } from './bulk-upload.js';
import { FORMPOST } from './formpost.js';

/** GET /info: the capabilities and limits this server really has (§13.4). */
export function capabilities(maxObjectSize: number) {
  return {
    swift: {
      // The OpenStack Swift release whose behaviour the differential suite holds this API to.
      version: '2.30.1',
      max_file_size: maxObjectSize,
      // The engine's name rules (src-shared/names.ts), which it checks on every write.
      max_object_name_length: MAX_OBJECT_NAME_BYTES,
      max_object_name_size: MAX_OBJECT_NAME_BYTES,
      max_container_name_length: MAX_CONTAINER_NAME_BYTES,
      max_account_name_length: MAX_ACCOUNT_NAME_BYTES,
      container_listing_limit: LISTING_LIMIT,
      account_listing_limit: LISTING_LIMIT,
      valid_api_versions: ['v1', 'v1.0'],
      extra_header_count: 0,
      strict_cors_mode: true,
      policies: [{ name: 'default-placement', default: true }],
      ...META_LIMITS,
    },
    container_quotas: {},
    account_quotas: {},
    tempurl: TEMPURL,
    // Browser form uploads (handlers/formpost.ts), signed with the TempURL keys.
    formpost: FORMPOST,
    // X-Versions-Enabled, `?versions`, `?version-id=` over the engine's versions (handlers/versions.ts).
    object_versioning: {},
    // Legacy versioned writes (engine ops/legacy-versions.ts), with the flags Swift lists.
    versioned_writes: { allowed_flags: ['x-versions-location', 'x-history-location'] },
    slo: {
      max_manifest_segments: SLO_LIMITS.maxSegments,
      max_manifest_size: SLO_LIMITS.maxManifestBytes,
      min_segment_size: SLO_LIMITS.minSegmentSize,
    },
    // ?extract-archive= (handlers/bulk-upload.ts), with Swift's keys.
    bulk_upload: BULK_UPLOAD_LIMITS,
    bulk_delete: {
      max_deletes_per_request: BULK_DELETE_LIMITS.maxDeletesPerRequest,
      max_failed_deletes: BULK_DELETE_LIMITS.maxFailedDeletes,
    },
    // X-Account-Access-Control (engine/access.ts account roles), as tempauth registers it.
    tempauth: { account_acls: true },
    symlink: SYMLINK_INFO,
    // Container web sites (handlers/staticweb.ts).
    staticweb: {},
  };
}

export function info(call: Pick<NativeCall, 'x' | 'ctx'>): void {
  reply(call.x, 200, { 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify(capabilities(call.ctx.engine.options.maxObjectSize)));
}
