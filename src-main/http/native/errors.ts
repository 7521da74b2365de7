import type { CofferError, CofferErrorCode } from '../../../src-shared/errors.js';

/** Swift's default type for answers without a document and for its error pages (swob's Response). */
export const HTML = 'text/html; charset=UTF-8';
/** The type of the refusals Swift writes as plain text (constraints, symlink, copy): no charset. */
export const PLAIN = 'text/plain';

/** The engine's message is the body: it is written in Swift's words (name and size limits, copy sources). */
export const MESSAGE = Symbol('engine message');

export interface NativeErrorInfo {
  status: number;
  /** The body: a text of Swift's, the engine's message, or null for Swift's page of the status. */
  body: string | typeof MESSAGE | null;
  /** Swift says text/plain for this refusal instead of its HTML type. */
  plain?: true;
}

/**
 * Swift's status pages (swob's RESPONSE_REASONS): an answer without a body of its own carries
 * `<html><h1>title</h1><p>explanation</p></html>`, 202 Accepted included; a status without an
 * explanation (200, 201, 204, 206, 304) has an empty body.
 */
const STATUS_PAGES: Record<number, readonly [string, string]> = {
  202: ['Accepted', 'The request is accepted for processing.'],
  301: ['Moved Permanently', 'The resource has moved permanently.'],
  302: ['Found', 'The resource has moved temporarily.'],
  303: ['See Other', 'The response to the request can be found under a different URI.'],
  307: ['Temporary Redirect', 'The resource has moved temporarily.'],
  400: ['Bad Request', 'The server could not comply with the request since it is either malformed or otherwise incorrect.'],
  401: ['Unauthorized', 'This server could not verify that you are authorized to access the document you requested.'],
  402: ['Payment Required', 'Access was denied for financial reasons.'],
  403: ['Forbidden', 'Access was denied to this resource.'],
  404: ['Not Found', 'The resource could not be found.'],
  405: ['Method Not Allowed', 'The method is not allowed for this resource.'],
  406: ['Not Acceptable', 'The resource is not available in a format acceptable to your browser.'],
  408: ['Request Timeout', 'The server has waited too long for the request to be sent by the client.'],
  409: ['Conflict', 'There was a conflict when trying to complete your request.'],
  410: ['Gone', 'This resource is no longer available.'],
  411: ['Length Required', 'Content-Length header required.'],
  412: ['Precondition Failed', 'A precondition for this request was not met.'],
  413: ['Request Entity Too Large', 'The body of your request was too large for this server.'],
  414: ['Request URI Too Long', 'The request URI was too long for this server.'],
  415: ['Unsupported Media Type', 'The request media type is not supported by this server.'],
  416: ['Requested Range Not Satisfiable', 'The Range requested is not available.'],
  417: ['Expectation Failed', 'Expectation failed.'],
  422: ['Unprocessable Entity', 'Unable to process the contained instructions'],
  499: ['Client Disconnect', 'The client was disconnected during request.'],
  500: ['Internal Error', 'The server has either erred or is incapable of performing the requested operation.'],
  501: ['Not Implemented', 'The requested method is not implemented by this server.'],
  502: ['Bad Gateway', 'Bad gateway.'],
  503: ['Service Unavailable', 'The server is currently unavailable. Please try again at a later time.'],
  504: ['Gateway Timeout', 'A timeout has occurred speaking to a backend server.'],
  // Swift fills in the drive from the storage node's answer; a proxy without one says "unknown".
  507: ['Insufficient Storage', 'There was not enough space to save the resource. Drive: unknown'],
};

/** Swift's page for a status, or '' where it has none (2xx but 202, 304, statuses it does not know). */
export function statusPage(status: number): string {
  const page = STATUS_PAGES[status];
  return page ? `<html><h1>${page[0]}</h1><p>${page[1]}</p></html>` : '';
}

/** How every engine error code reads on the native API (§14), as Swift answers it. The compiler checks coverage. */
export const NATIVE_ERRORS: Record<CofferErrorCode, NativeErrorInfo> = {
  InvalidArgument: { status: 400, body: MESSAGE },
  InvalidAccountName: { status: 400, body: MESSAGE },
  InvalidTenantName: { status: 400, body: MESSAGE },
  AccountExists: { status: 409, body: MESSAGE },
  NoSuchAccount: { status: 404, body: null },
  AccountNotEmpty: { status: 409, body: MESSAGE },
  AccessKeyInUse: { status: 409, body: MESSAGE },
  // Swift's proxy writes "Container name length of … longer than …" into its HTML-typed 400.
  InvalidContainerName: { status: 400, body: MESSAGE },
  // Another account of the tenant has the name; Swift has no such case. "already exists" is what
  // Coffer's Swift client reads as ContainerExists (backends/swift/errors.ts).
  ContainerExists: { status: 409, body: MESSAGE },
  // A container PUT again: Swift's 202 page.
  ContainerOwnedByYou: { status: 202, body: null },
  NoSuchContainer: { status: 404, body: null },
  ContainerNotEmpty: { status: 409, body: null },
  InvalidBucketState: { status: 409, body: null },
  // Swift's proxy: 403 "Reached container limit of N" (max_containers_per_account), in swob's HTML type.
  TooManyContainers: { status: 403, body: MESSAGE },
  // Swift's check_object_creation answers in plain text ("Object name length of 1025 longer than 1024").
  InvalidObjectName: { status: 400, body: MESSAGE, plain: true },
  NoSuchKey: { status: 404, body: null },
  NoSuchVersion: { status: 404, body: null },
  DeleteMarker: { status: 404, body: null },
  BadDigest: { status: 422, body: null },
  IncompleteBody: { status: 499, body: null },
  EntityTooLarge: { status: 413, body: 'Your request is too large.', plain: true },
  EntityTooSmall: { status: 400, body: MESSAGE },
  // The quota middlewares' own words, in swob's HTML type.
  QuotaExceeded: { status: 413, body: 'Upload exceeds quota.' },
  InsufficientStorage: { status: 507, body: null },
  // Swift's check_metadata answers in plain text.
  MetadataTooLarge: { status: 400, body: MESSAGE, plain: true },
  // A write's precondition (If-None-Match: *) gets the page; a read's 412 is empty (handlers/object.ts).
  PreconditionFailed: { status: 412, body: null },
  InvalidRange: { status: 416, body: null },
  InvalidCopy: { status: 400, body: MESSAGE },
  ChecksumTypeMismatch: { status: 400, body: MESSAGE },
  // Multipart uploads and tags belong to the compatible API: the page, should one surface here.
  NoSuchUpload: { status: 404, body: null },
  InvalidPart: { status: 400, body: null },
  InvalidPartOrder: { status: 400, body: null },
  InvalidTag: { status: 400, body: null },
  TooManyTags: { status: 400, body: null },
  // Only the compatible API asks the engine to check a signed SHA-256.
  ContentSha256Mismatch: { status: 422, body: null },
  // Swift's SLO answers 409 when a segment is gone or changed (or nesting is too deep).
  BrokenLargeObject: { status: 409, body: null },
  Aborted: { status: 499, body: null },
  Closed: { status: 503, body: null },
  // Swift's own pages; never the engine's message, which may name what was refused.
  AccessDenied: { status: 403, body: null },
  AuthFailed: { status: 401, body: null },
  Unreachable: { status: 502, body: null },
  NotSupported: { status: 501, body: null },
  RemoteError: { status: 502, body: null },
  InternalError: { status: 500, body: null },
};

/**
 * A refusal in the native API's own words (Swift's texts for its checks on paths, headers and
 * bodies) with its status; everything the engine decides reads through NATIVE_ERRORS instead.
 */
export class NativeError extends Error {
  constructor(
    readonly status: number,
    /** The body, in Swift's HTML type unless the headers say another; null = Swift's page of the status. */
    readonly body: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(body ?? String(status));
  }
}

/** A refusal Swift writes as text/plain (its constraints, symlink and copy middlewares). */
export function plainError(status: number, body: string, headers: Record<string, string> = {}): NativeError {
  return new NativeError(status, body, { 'Content-Type': PLAIN, ...headers });
}

/** An engine error as the native API answers it: through the table, with any headers of the caller's. */
export function nativeErrorOf(err: CofferError, headers: Record<string, string> = {}): NativeError {
  const e = NATIVE_ERRORS[err.code];
  const body = e.body === MESSAGE ? err.message : e.body;
  return new NativeError(e.status, body, e.plain ? { 'Content-Type': PLAIN, ...headers } : headers);
}
