import { BULK_DELETE_LIMITS } from '../../../engine/ops/bulk-delete.js';
import { SLO_LIMITS } from '../../../engine/ops/large-objects.js';
import { LISTING_LIMIT } from '../limits.js';
import { META_LIMITS } from '../metadata.js';
import { fail, reply, type NativeCall } from '../respond.js';
import { TEMPURL } from './tempurl.js';

/** GET /info: the capabilities and limits this server really has (§13.4). */
export function capabilities(maxObjectSize: number) {
  return {
    swift: {
      version: '2.34.0',
      max_file_size: maxObjectSize,
      max_object_name_length: 1024,
      max_object_name_size: 1024,
      max_container_name_length: 255,
      max_account_name_length: 256,
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
    slo: {
      max_manifest_segments: SLO_LIMITS.maxSegments,
      max_manifest_size: SLO_LIMITS.maxManifestBytes,
      min_segment_size: SLO_LIMITS.minSegmentSize,
    },
    bulk_delete: {
      max_deletes_per_request: BULK_DELETE_LIMITS.maxDeletesPerRequest,
      max_failed_deletes: BULK_DELETE_LIMITS.maxFailedDeletes,
    },
    tempauth: { account_acls: false },
  };
}

export function info(call: Pick<NativeCall, 'x' | 'ctx'>): void {
  // As Swift's proxy: only reads (its OPTIONS is CORS, which Coffer's native API does not serve yet).
  if (call.x.method !== 'GET' && call.x.method !== 'HEAD') return fail(call.x, 405, null, { Allow: 'GET, HEAD' });
  reply(call.x, 200, { 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify(capabilities(call.ctx.engine.options.maxObjectSize)));
}
