// S3 SDK errors -> CofferError codes, keeping the server's message for the user.
import { CofferError, isCofferError, type CofferErrorCode } from '../../src-shared/errors.js';

/** The AWS error codes (the SDK's error `name`) that have a Coffer equivalent. */
const BY_S3_CODE: Record<string, CofferErrorCode> = {
  NoSuchBucket: 'NoSuchContainer',
  NoSuchKey: 'NoSuchKey',
  NotFound: 'NoSuchKey',
  NoSuchVersion: 'NoSuchVersion',
  NoSuchUpload: 'NoSuchUpload',
  BucketNotEmpty: 'ContainerNotEmpty',
  BucketAlreadyExists: 'ContainerExists',
  BucketAlreadyOwnedByYou: 'ContainerOwnedByYou',
  TooManyBuckets: 'TooManyContainers',
  InvalidBucketName: 'InvalidContainerName',
  KeyTooLongError: 'InvalidObjectName',
  QuotaExceeded: 'QuotaExceeded',
  EntityTooLarge: 'EntityTooLarge',
  EntityTooSmall: 'EntityTooSmall',
  MetadataTooLarge: 'MetadataTooLarge',
  BadDigest: 'BadDigest',
  InvalidDigest: 'BadDigest',
  IncompleteBody: 'IncompleteBody',
  InvalidRange: 'InvalidRange',
  PreconditionFailed: 'PreconditionFailed',
  InvalidPart: 'InvalidPart',
  InvalidPartOrder: 'InvalidPartOrder',
  InvalidTag: 'InvalidTag',
  InvalidArgument: 'InvalidArgument',
  InvalidRequest: 'InvalidArgument',
  AccessDenied: 'AccessDenied',
  AllAccessDisabled: 'AccessDenied',
  Forbidden: 'AccessDenied',
  InvalidAccessKeyId: 'AuthFailed',
  SignatureDoesNotMatch: 'AuthFailed',
  ExpiredToken: 'AuthFailed',
  InvalidToken: 'AuthFailed',
  TokenRefreshRequired: 'AuthFailed',
  RequestTimeTooSkewed: 'AuthFailed',
  NotImplemented: 'NotSupported',
  AbortError: 'Aborted',
  TimeoutError: 'Unreachable',
  RequestTimeout: 'Unreachable',
};

/** Node network failures: the endpoint cannot be reached (or stopped answering). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'ECONNABORTED',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
]);

interface SdkErrorShape {
  name?: string;
  message?: string;
  code?: string;
  Code?: string;
  errors?: unknown[];
  cause?: unknown;
  $metadata?: { httpStatusCode?: number; requestId?: string };
}

/** The first Node error code found on the error, its cause chain, or an AggregateError's parts. */
function networkCode(err: unknown, depth = 0): string | undefined {
  if (!err || typeof err !== 'object' || depth > 5) return undefined;
  const e = err as SdkErrorShape;
  if (e.code && NETWORK_CODES.has(e.code)) return e.code;
  for (const inner of e.errors ?? []) {
    const found = networkCode(inner, depth + 1);
    if (found) return found;
  }
  return networkCode(e.cause, depth + 1);
}

/** By HTTP status when the body named no code (HEAD answers have no body). */
function byStatus(status: number | undefined): CofferErrorCode | undefined {
  if (status === 403) return 'AccessDenied';
  if (status === 404) return 'NoSuchKey';
  if (status === 412) return 'PreconditionFailed';
  if (status === 416) return 'InvalidRange';
  return undefined;
}

/** Runs one SDK call, its failure turned into a CofferError (by fromS3Error). */
export type SdkCall = <T>(op: () => Promise<T>) => Promise<T>;

/**
 * Turns whatever the SDK threw into a CofferError. The message is the server's (or the network
 * error's), prefixed with the S3 code when it is one we do not map, so nothing is lost.
 */
export function fromS3Error(err: unknown, what?: string): CofferError {
  if (isCofferError(err)) return err;
  const e = (err ?? {}) as SdkErrorShape;
  const status = e.$metadata?.httpStatusCode;
  // A HEAD answer has no body: the SDK then calls the error 'Unknown', and only the status says anything.
  const bodyless = e.name === 'Unknown' || e.name === 'UnknownError';
  const name = bodyless && status ? `HTTP ${status}` : (e.Code ?? e.name ?? 'Error');
  const details = { s3Code: name, ...(status ? { status } : {}), ...(e.$metadata?.requestId ? { requestId: e.$metadata.requestId } : {}) };
  const message = e.message && !bodyless ? e.message : `The server answered ${status ? `HTTP ${status}` : name}`;
  const net = networkCode(err);
  if (net && !status) return new CofferError('Unreachable', `${what ? `${what}: ` : ''}${net}: ${message}`, details);
  const code = BY_S3_CODE[name] ?? byStatus(status);
  if (code) return new CofferError(code, message, details);
  return new CofferError('RemoteError', `${name}: ${message}`, details);
}

/** The Coffer code for an S3 error code as found in a DeleteObjects result. */
export function codeForS3(code: string | undefined): CofferErrorCode {
  return (code && BY_S3_CODE[code]) || 'RemoteError';
}
