import type { CofferErrorCode } from '../../../src-shared/errors.js';

export interface NativeErrorInfo {
  status: number;
  /** Plain-text body (RGW prints the code or a Swift message); null = the status's standard text. */
  body: string | null;
}

const UNPROCESSABLE = 'Unable to process the contained instructions';

/** How every engine error code reads on the native API (§14). The compiler checks coverage. */
export const NATIVE_ERRORS: Record<CofferErrorCode, NativeErrorInfo> = {
  InvalidArgument: { status: 400, body: null },
  InvalidAccountName: { status: 400, body: null },
  InvalidTenantName: { status: 400, body: 'InvalidTenantName' },
  AccountExists: { status: 409, body: null },
  NoSuchAccount: { status: 404, body: null },
  AccountNotEmpty: { status: 409, body: null },
  AccessKeyInUse: { status: 409, body: null },
  InvalidContainerName: { status: 400, body: null },
  ContainerExists: { status: 409, body: 'BucketAlreadyExists' },
  ContainerOwnedByYou: { status: 202, body: '' },
  NoSuchContainer: { status: 404, body: 'NoSuchBucket' },
  ContainerNotEmpty: { status: 409, body: 'There was a conflict when trying to complete your request.' },
  InvalidBucketState: { status: 409, body: 'There was a conflict when trying to complete your request.' },
  TooManyContainers: { status: 400, body: 'TooManyBuckets' },
  InvalidObjectName: { status: 400, body: null },
  NoSuchKey: { status: 404, body: 'NoSuchKey' },
  NoSuchVersion: { status: 404, body: 'NoSuchVersion' },
  DeleteMarker: { status: 404, body: 'NoSuchKey' },
  BadDigest: { status: 422, body: UNPROCESSABLE },
  IncompleteBody: { status: 499, body: 'Client disconnected or sent fewer bytes than Content-Length' },
  EntityTooLarge: { status: 413, body: 'Your request is too large.' },
  EntityTooSmall: { status: 400, body: 'EntityTooSmall' },
  QuotaExceeded: { status: 413, body: 'Upload exceeds quota.' },
  InsufficientStorage: { status: 507, body: 'Insufficient Storage' },
  MetadataTooLarge: { status: 400, body: null },
  PreconditionFailed: { status: 412, body: 'PreconditionFailed' },
  InvalidRange: { status: 416, body: 'InvalidRange' },
  InvalidCopy: { status: 400, body: null },
  ChecksumTypeMismatch: { status: 400, body: null },
  NoSuchUpload: { status: 404, body: 'NoSuchUpload' },
  InvalidPart: { status: 400, body: 'InvalidPart' },
  InvalidPartOrder: { status: 400, body: 'InvalidPartOrder' },
  // Tags are only set through the compatible API.
  InvalidTag: { status: 400, body: 'InvalidTag' },
  TooManyTags: { status: 400, body: 'TooManyTags' },
  // Only the compatible API asks the engine to check a signed SHA-256.
  ContentSha256Mismatch: { status: 422, body: UNPROCESSABLE },
  // Swift's SLO answers 409 when a segment is gone or changed (or nesting is too deep).
  BrokenLargeObject: { status: 409, body: 'There was a conflict when trying to complete your request.' },
  Aborted: { status: 499, body: 'Client Closed Request' },
  Closed: { status: 503, body: 'ServiceUnavailable' },
  // As Swift's own refusals read; never the engine's message, which may name what was refused.
  AccessDenied: { status: 403, body: 'Forbidden' },
  AuthFailed: { status: 401, body: 'Unauthorized' },
  Unreachable: { status: 502, body: 'Bad Gateway' },
  NotSupported: { status: 501, body: 'Not Implemented' },
  RemoteError: { status: 502, body: 'Bad Gateway' },
  InternalError: { status: 500, body: 'UnknownError' },
};

/**
 * A refusal in the native API's own words (Swift's texts for its checks on paths, headers and
 * bodies) with its status; everything the engine decides reads through NATIVE_ERRORS instead.
 */
export class NativeError extends Error {
  constructor(
    readonly status: number,
    /** Plain-text body; null = the status's standard text. */
    readonly body: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(body ?? String(status));
  }
}
