// How /_coffer answers a failure: the contract's envelope ({ok:false, error:{code, message}}, as
// every transport carries it) with a status that says the same to what only reads statuses (the
// browser's network panel and downloads, a proxy, a log). The page goes by the envelope: any
// answer with one is the server's, anything else (a proxy's error page) means it was not reached.
import { COFFER_ERROR_CODES, isCofferError, type CofferErrorCode, type CofferErrorData } from '../../../src-shared/errors.js';

/**
 * Every code's status. 401 is the page's own session only (it tells the page to open the printed
 * link again): a remote store refusing its credentials is that store's answer, 502 like the
 * store's other failures (it cannot be reached, or failed on its side).
 */
export const UI_STATUS: Record<CofferErrorCode, number> = {
  InvalidArgument: 400,
  InvalidAccountName: 400,
  InvalidTenantName: 400,
  AccountExists: 409,
  NoSuchAccount: 404,
  AccountNotEmpty: 409,
  AccessKeyInUse: 409,
  InvalidContainerName: 400,
  ContainerExists: 409,
  ContainerOwnedByYou: 409,
  NoSuchContainer: 404,
  ContainerNotEmpty: 409,
  InvalidBucketState: 409,
  TooManyContainers: 400,
  InvalidObjectName: 400,
  NoSuchKey: 404,
  NoSuchVersion: 404,
  DeleteMarker: 404,
  BadDigest: 400,
  ContentSha256Mismatch: 400,
  IncompleteBody: 400,
  EntityTooLarge: 413,
  EntityTooSmall: 400,
  QuotaExceeded: 413,
  InsufficientStorage: 507,
  MetadataTooLarge: 400,
  PreconditionFailed: 412,
  InvalidRange: 416,
  InvalidCopy: 400,
  ChecksumTypeMismatch: 400,
  NoSuchUpload: 404,
  InvalidPart: 400,
  InvalidPartOrder: 400,
  InvalidTag: 400,
  TooManyTags: 400,
  BrokenLargeObject: 409,
  Aborted: 409,
  Closed: 503,
  AccessDenied: 403,
  AuthFailed: 502,
  Unreachable: 502,
  NotSupported: 501,
  RemoteError: 502,
  InternalError: 500,
};

const KNOWN = new Set<string>(COFFER_ERROR_CODES);

/** What crosses as the error: a CofferError's code and message; anything else is an InternalError saying what it was. */
export function errorData(err: unknown): CofferErrorData {
  if (isCofferError(err)) return err.toData();
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' && KNOWN.has(e.code) ? (e.code as CofferErrorCode) : 'InternalError';
  return { code, message: typeof e?.message === 'string' ? e.message : String(err) };
}

/** A failure as /_coffer answers it: the status of its code (or a more precise one) and the envelope as JSON. */
export function failure(error: CofferErrorData, status: number = UI_STATUS[error.code]): { status: number; body: string } {
  return { status, body: JSON.stringify({ ok: false, error }) };
}
