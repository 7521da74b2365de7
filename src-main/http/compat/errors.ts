import type { CofferErrorCode } from '../../../src-shared/errors.js';

export interface S3ErrorInfo {
  status: number;
  code: string;
  message: string;
}

const e = (status: number, code: string, message: string): S3ErrorInfo => ({ status, code, message });

/** How every engine error code reads on the compatible API (§19). The compiler checks coverage. */
export const S3_ERRORS: Record<CofferErrorCode, S3ErrorInfo> = {
  InvalidArgument: e(400, 'InvalidArgument', 'Invalid Argument'),
  InvalidAccountName: e(400, 'InvalidArgument', 'Invalid account name'),
  InvalidTenantName: e(400, 'InvalidTenantName', 'The specified tenant name is not valid.'),
  AccountExists: e(409, 'UserAlreadyExists', 'The user already exists.'),
  NoSuchAccount: e(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'),
  AccountNotEmpty: e(409, 'BucketNotEmpty', 'The account still owns buckets.'),
  AccessKeyInUse: e(409, 'KeyExists', 'The access key is already in use.'),
  InvalidContainerName: e(400, 'InvalidBucketName', 'The specified bucket is not valid.'),
  ContainerExists: e(409, 'BucketAlreadyExists', 'The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.'),
  ContainerOwnedByYou: e(409, 'BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.'),
  NoSuchContainer: e(404, 'NoSuchBucket', 'The specified bucket does not exist.'),
  ContainerNotEmpty: e(409, 'BucketNotEmpty', 'The bucket you tried to delete is not empty.'),
  InvalidBucketState: e(409, 'InvalidBucketState', 'The request is not valid with the current state of the bucket.'),
  TooManyContainers: e(400, 'TooManyBuckets', 'You have attempted to create more buckets than allowed.'),
  InvalidObjectName: e(400, 'InvalidObjectName', 'The specified key is not valid.'),
  NoSuchKey: e(404, 'NoSuchKey', 'The specified key does not exist.'),
  NoSuchVersion: e(404, 'NoSuchVersion', 'The specified version does not exist.'),
  DeleteMarker: e(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.'),
  BadDigest: e(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.'),
  IncompleteBody: e(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.'),
  EntityTooLarge: e(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed object size.'),
  EntityTooSmall: e(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.'),
  QuotaExceeded: e(403, 'QuotaExceeded', 'Quota exceeded.'),
  InsufficientStorage: e(507, 'InsufficientStorage', 'There is not enough space left on the storage device.'),
  MetadataTooLarge: e(400, 'MetadataTooLarge', 'Your metadata headers exceed the maximum allowed metadata size.'),
  PreconditionFailed: e(412, 'PreconditionFailed', 'At least one of the preconditions you specified did not hold.'),
  InvalidRange: e(416, 'InvalidRange', 'The requested range is not satisfiable'),
  InvalidCopy: e(400, 'InvalidRequest', 'This copy request is illegal.'),
  // AWS's code; the engine's message names both algorithms as AWS's does.
  ChecksumTypeMismatch: e(400, 'InvalidRequest', 'Checksum Type mismatch occurred.'),
  NoSuchUpload: e(404, 'NoSuchUpload', 'The specified multipart upload does not exist. The upload ID might be invalid, or the multipart upload might have been aborted or completed.'),
  InvalidPart: e(400, 'InvalidPart', 'One or more of the specified parts could not be found. The part might not have been uploaded, or the specified entity tag might not have matched the part\'s entity tag.'),
  ContentSha256Mismatch: e(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed."),
  BrokenLargeObject: e(403, 'InvalidObjectState', 'The object is a large object whose segments were deleted or changed; it cannot be served as stored.'),
  InvalidPartOrder: e(400, 'InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.'),
  InvalidTag: e(400, 'InvalidTag', 'The tag provided was not a valid tag.'),
  // AWS's code for more tags than a tag set may hold.
  TooManyTags: e(400, 'BadRequest', 'Object tags cannot be greater than 10'),
  Aborted: e(400, 'RequestTimeout', 'Your socket connection to the server was not read from or written to within the timeout period.'),
  Closed: e(503, 'ServiceUnavailable', 'The server is shutting down.'),
  AccessDenied: e(403, 'AccessDenied', 'Access Denied'),
  AuthFailed: e(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'),
  Unreachable: e(503, 'ServiceUnavailable', 'A remote store could not be reached.'),
  NotSupported: e(501, 'NotImplemented', 'A header you provided implies functionality that is not implemented.'),
  RemoteError: e(502, 'InternalError', 'A remote store answered with an error.'),
  InternalError: e(500, 'InternalError', 'We encountered an internal error. Please try again.'),
};

/** AWS's answer for a key past 1024 bytes (RGW says InvalidObjectName, as the table does for the code). */
export const KEY_TOO_LONG = e(400, 'KeyTooLongError', 'Your key is too long');

/** A protocol-level error of the compatible API (signatures, XML, parameters) with its status. */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const s3 = {
  accessDenied: (msg: string) => new S3Error(403, 'AccessDenied', msg),
  invalidArgument: (msg: string, extra: Record<string, string> = {}) => new S3Error(400, 'InvalidArgument', msg, extra),
  invalidRequest: (msg: string) => new S3Error(400, 'InvalidRequest', msg),
  malformedXml: () =>
    new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.'),
  // Not the table's DeleteMarker, which says a delete marker is in the way.
  methodNotAllowed: () => new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.'),
};
