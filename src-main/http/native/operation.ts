import type { AccountAcl, Action, ContainerSettings, RangeRequest, RequestFields, SymlinkTarget } from '../../engine/index.js';
import type { ConditionalHeaders } from '../common/conditionals.js';
import type { ListingFormat, ListingType } from './listing-format.js';
import type { DloHeader } from './params.js';
import type { MetaChange } from './metadata.js';
import type { NativeError } from './errors.js';
import type { CofferError } from '../../../src-shared/errors.js';
import type { Compression } from './archive.js';

/** The account (and container) a request's path names. */
export interface AccountPath {
  account: string;
}
export interface ContainerPath extends AccountPath {
  container: string;
}
export interface ObjectPath extends ContainerPath {
  object: string;
}

/** What a listing asks for (§5). */
export interface ListingParams {
  type: ListingType;
  limit: number | undefined;
  marker: string | undefined;
  endMarker: string | undefined;
  prefix: string | undefined;
  reverse: boolean;
}

/** A TempURL's query (§12.2): checked by the TempURL authenticator, which then acts as the signing account. */
export interface TempUrlParams {
  sig: string;
  expires: string;
  prefix: string | undefined;
  filename: string | undefined;
  inline: boolean;
}

/**
 * A GET/HEAD Swift's staticweb may answer (no token, or `X-Web-Mode: true`): what the container's
 * web settings then make of it (handlers/staticweb.ts). `slash`: the container's path ended in `/`;
 * `get`: the read of an index page a container path may serve.
 */
export interface WebRequest {
  mode: boolean;
  slash: boolean;
  get: GetParams;
}

/** Object fields a PUT, POST or copy sets from its headers. */
export type ObjectFields = RequestFields;

export interface GetParams {
  /** The first range of `Range` (all a HEAD or a manifest read serves). */
  range: RangeRequest | undefined;
  /** Every range, when `Range` names more than one: a GET answers multipart/byteranges. */
  ranges?: RangeRequest[] | undefined;
  conditions: ConditionalHeaders;
  /** `?version-id=` (object versioning): 'null' for the null version. */
  versionId?: string | undefined;
  /** `?symlink=get`: a symlink itself, not the object it points at. */
  symlinkGet?: boolean;
}

export interface PutParams {
  /** Content-Length, undefined when chunked. */
  size: number | undefined;
  ifNoneMatch: '*' | undefined;
  fields: ObjectFields;
  /** The ETag header: the MD5 the body must have (or, for a manifest, the SLO ETag). */
  etag: string | undefined;
  /** `X-Object-Manifest`: a DLO over container/prefix. */
  dlo: DloHeader | undefined;
}

type Op<N extends string, P = object> = { name: N } & P;

/**
 * Every request the native API answers, with all it carries. Parameters that failed to parse are
 * kept as `invalid`, raised after the access decision (as the handlers raised them), so only a
 * caller allowed to act learns what was wrong with the request.
 */
export type NativeOperation = (
  | Op<'Auth', { user: string | undefined; key: string | undefined; host: string | undefined }>
  | Op<'Info'>
  | Op<'MethodNotAllowed', { allow: string; path: AccountPath | ContainerPath | ObjectPath | undefined }>
  | Op<'TempUrlInvalid'>
  | Op<'Preflight', { path: ContainerPath | ObjectPath; allow: string; origin: string | undefined; requestMethod: string | undefined; requestHeaders: string[] }>
  | Op<'HeadAccount', { path: AccountPath; type: ListingType }>
  | Op<'ListAccount', { path: AccountPath; listing: ListingParams & { delimiter: string | undefined } }>
  | Op<'PostAccount', { path: AccountPath; change: MetaChange; /** X-Account-Access-Control: the new ACL, null to clear it, undefined when not given. */ acl: AccountAcl | null | undefined }>
  /**
   * `reportType`: the report's Content-Type (text/xml where the XML report was asked for as that);
   * `format` undefined: Accept names none of the report's types (406, told in the report).
   */
  | Op<'BulkDelete', { path: AccountPath; contentType: string | undefined; format: ListingFormat | undefined; reportType: string | undefined; framed: boolean }>
  /**
   * `PUT ?extract-archive=` (Swift's bulk upload): the archive's files stored under the path.
   * `format` undefined: Accept names none of the report's types (406, told in the report);
   * `fields`: what the request's X-Delete-At/After and X-Object-Meta-* give every file, or why they are refused.
   */
  | Op<'ExtractArchive', { path: AccountPath | ContainerPath | ObjectPath; compression: Compression; format: ListingFormat | undefined; reportType: string | undefined; framed: boolean; fields: ObjectFields | NativeError }>
  /**
   * A multipart/form-data POST (Swift's formpost): files stored under the path, authorised by the
   * form's signature over `signedPath` (the request's path, decoded), not by a token.
   */
  | Op<'FormPost', { path: AccountPath | ContainerPath | ObjectPath; boundary: string; signedPath: string }>
  | Op<'PutContainer', { path: ContainerPath; settings: ContainerSettings; meta: MetaChange }>
  | Op<'HeadContainer', { path: ContainerPath; type: ListingType; web?: WebRequest }>
  | Op<'ListContainer', { path: ContainerPath; listing: ListingParams & { delimiter: string | undefined; path: string | undefined; allowUnordered: boolean | undefined }; web?: WebRequest }>
  /** `GET ?versions` (object versioning): every version, JSON only; `versionMarker` continues within `marker`'s versions. */
  | Op<'ListVersions', { path: ContainerPath; listing: ListingParams & { delimiter: string | undefined; versionMarker: string | undefined } }>
  | Op<'PostContainer', { path: ContainerPath; settings: ContainerSettings; meta: MetaChange }>
  | Op<'DeleteContainer', { path: ContainerPath }>
  | Op<'GetObject', { path: ObjectPath; tempUrl: TempUrlParams | undefined; web?: WebRequest } & GetParams>
  | Op<'HeadObject', { path: ObjectPath; tempUrl: TempUrlParams | undefined; web?: WebRequest } & GetParams>
  | Op<'GetManifest', { path: ObjectPath; raw: boolean; head: boolean } & GetParams>
  | Op<'PutObject', { path: ObjectPath; tempUrl: TempUrlParams | undefined } & PutParams>
  /** PUT with `X-Symlink-Target` (Swift's symlink middleware): a zero-byte link; with an ETag, a static one. */
  | Op<'PutSymlink', { path: ObjectPath; link: SymlinkTarget; size: number | undefined; ifNoneMatch: '*' | undefined; fields: ObjectFields }>
  | Op<'PutManifest', { path: ObjectPath; format: ListingFormat; contentLength: number | undefined } & PutParams>
  | Op<'PostObject', {
      path: ObjectPath;
      tempUrl: TempUrlParams | undefined;
      fields: ObjectFields;
      removeDeleteAt: boolean;
      /** X-Object-Manifest, replaced with the rest of the metadata: null when the POST has none. */
      dlo: DloHeader | null;
    }>
  | Op<'DeleteObject', { path: ObjectPath; tempUrl: TempUrlParams | undefined; ifDeleteAt?: number | undefined; versionId?: string | undefined }>
  /** `PUT ?version-id=` with an empty body: that version becomes the current one again. */
  | Op<'RestoreVersion', { path: ObjectPath; versionId: string }>
  | Op<'DeleteManifest', { path: ObjectPath; format: ListingFormat }>
  | Op<'CopyObject', {
      path: ObjectPath;
      from: ObjectPath;
      to: ObjectPath;
      conditions: ConditionalHeaders;
      /** Or why they are refused: Swift reaches both ends and reads the source before it judges the new fields. */
      fields: ObjectFields | NativeError;
      fresh: boolean;
      /** COPY `?version-id=`: the source's version (object versioning). */
      sourceVersionId?: string | undefined;
      /** `?symlink=get`: a symlink source is copied as itself, not its target. */
      symlinkGet?: boolean;
      /** A Range on the copy: only those bytes of the source are copied, as Swift's copy middleware reads it. */
      range?: RangeRequest | undefined;
      /** `?multipart-manifest=get`: a large object's manifest is copied, not its assembled bytes. */
      manifest?: boolean;
    }>
) & {
  /** The first parameter that failed to parse (raised after authentication and the access decision). */
  invalid?: NativeError | CofferError;
  /** `Origin` (a browser's cross-origin request): what container and object requests answer CORS for. */
  origin?: string | undefined;
};

export type NativeOpName = NativeOperation['name'];
export type NativeOpOf<N extends NativeOpName> = Extract<NativeOperation, { name: N }>;

/**
 * What an operation asks of the access module: 'none' (sign-in, capabilities, a refused
 * TempURL), 'account' (the path's account must be the caller's), 'signed-in' (any account: bulk
 * deletes then ask for each container they touch), an Action on the path's container, or
 * 'each-end' (a copy asks for its source and its destination).
 */
export type NativeAccess = 'none' | 'account' | 'signed-in' | Action | 'each-end';

export function accessOf(op: NativeOperation): NativeAccess {
  switch (op.name) {
    case 'Auth':
    case 'Info':
    case 'TempUrlInvalid':
    case 'Preflight':
    case 'FormPost':
      return 'none';
    case 'MethodNotAllowed':
      // Refused only once the caller could have done something there, as any other method.
      if (!op.path) return 'none';
      return 'object' in op.path ? 'write-object' : 'container' in op.path ? 'admin' : 'account';
    case 'HeadAccount':
    case 'ListAccount':
    case 'PostAccount':
    case 'PutContainer':
      return 'account';
    case 'BulkDelete':
    case 'ExtractArchive':
      // Each container and file is then decided on its own, as Swift's subrequests are.
      return 'signed-in';
    case 'HeadContainer':
    case 'ListContainer':
    case 'ListVersions':
      return 'list';
    case 'PostContainer':
    case 'DeleteContainer':
      return 'admin';
    case 'GetObject':
    case 'HeadObject':
    case 'GetManifest':
      return 'read-object';
    case 'PutObject':
    case 'PutManifest':
    case 'PutSymlink':
    case 'PostObject':
    case 'DeleteObject':
    case 'DeleteManifest':
    case 'RestoreVersion':
      return 'write-object';
    case 'CopyObject':
      return 'each-end';
  }
}
