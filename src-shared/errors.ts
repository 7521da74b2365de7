/**
 * The one error vocabulary of Coffer. The engine throws these; each protocol front end maps every
 * code to its own status and body (a `Record<CofferErrorCode, ...>` so the compiler checks coverage),
 * and the contract carries them as `{code, message}` data.
 */
export const COFFER_ERROR_CODES = [
  'InvalidArgument',
  'InvalidAccountName',
  'InvalidTenantName',
  'AccountExists',
  'NoSuchAccount',
  'AccountNotEmpty',
  'AccessKeyInUse',
  'InvalidContainerName',
  'ContainerExists',
  'ContainerOwnedByYou',
  'NoSuchContainer',
  'ContainerNotEmpty',
  /** The container's state forbids the change (object lock and versioning). */
  'InvalidBucketState',
  'TooManyContainers',
  'InvalidObjectName',
  'NoSuchKey',
  'NoSuchVersion',
  'DeleteMarker',
  'BadDigest',
  'ContentSha256Mismatch',
  'IncompleteBody',
  'EntityTooLarge',
  'EntityTooSmall',
  'QuotaExceeded',
  'InsufficientStorage',
  'MetadataTooLarge',
  'PreconditionFailed',
  'InvalidRange',
  'InvalidCopy',
  'NoSuchUpload',
  'InvalidPart',
  'ChecksumTypeMismatch',
  'InvalidPartOrder',
  'InvalidTag',
  'TooManyTags',
  'BrokenLargeObject',
  'Aborted',
  'Closed',
  'AccessDenied',
  'AuthFailed',
  'Unreachable',
  'NotSupported',
  'RemoteError',
  'InternalError',
] as const;

export type CofferErrorCode = (typeof COFFER_ERROR_CODES)[number];

export interface CofferErrorData {
  code: CofferErrorCode;
  message: string;
}

export class CofferError extends Error {
  override readonly name = 'CofferError';
  constructor(
    readonly code: CofferErrorCode,
    message: string = code,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toData(): CofferErrorData {
    return { code: this.code, message: this.message };
  }
}

export function isCofferError(err: unknown, code?: CofferErrorCode): err is CofferError {
  return err instanceof CofferError && (code === undefined || err.code === code);
}
