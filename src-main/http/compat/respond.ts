import { isCofferError } from '../../../src-shared/errors.js';
import type { Engine } from '../../engine/engine.js';
import type { ContainerInfo, ContainerRef } from '../../engine/types.js';
import type { Identity } from '../common/access.js';
import type { Exchange, HeaderValues } from '../common/exchange.js';
import { el, xmlDocument, type XmlNode } from '../common/xml.js';
import { KEY_TOO_LONG, S3_ERRORS, S3Error } from './errors.js';
import type { S3Address } from './router.js';
import type { SigV4Context } from './sigv4.js';

export const S3_NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

export interface CompatContext {
  engine: Engine;
  domain: string | undefined;
  /** Region reported by GetBucketLocation and x-amz-bucket-region. */
  region: string;
  /** Where unexpected failures are reported (they reach the client as InternalError). */
  log?: (line: string) => void;
}

/** A parsed, authenticated S3 request on its way to a handler. */
export interface S3Call {
  x: Exchange;
  ctx: CompatContext;
  who: Identity;
  address: S3Address;
  signing?: SigV4Context;
}

/** The bucket a call addresses (explicit tenant, else the caller's) and its record. */
export interface BucketCall extends S3Call {
  bucket: ContainerInfo;
  ref: ContainerRef;
}

export function s3Headers(x: Exchange, contentType?: string): HeaderValues {
  const headers: HeaderValues = { 'x-amz-request-id': x.id, 'x-amz-id-2': x.id };
  if (contentType) headers['Content-Type'] = contentType;
  return headers;
}

export function sendEmpty(x: Exchange, status: number, headers: HeaderValues = {}): void {
  x.send(status, headers, '', s3Headers(x));
}

export function sendXml(x: Exchange, status: number, root: XmlNode, headers: HeaderValues = {}): void {
  x.send(status, headers, xmlDocument(root), s3Headers(x, 'application/xml'));
}

/** A root element in the S3 namespace. */
export function s3Root(name: string, children: XmlNode[]): XmlNode {
  return el(name, children, { xmlns: S3_NS });
}

/** Renders any failure as the S3 error XML (§19.1); HEAD answers carry no body. */
export function sendError(call: Pick<S3Call, 'x' | 'address'>, err: unknown): void {
  let status: number;
  let code: string;
  let message: string;
  const extra: Record<string, string> = {};
  const headers: HeaderValues = {};
  if (err instanceof S3Error) {
    ({ status, code, message } = err);
    Object.assign(extra, err.extra);
  } else if (isCofferError(err)) {
    ({ status, code, message } = S3_ERRORS[err.code]);
    if (err.code === 'BadDigest' || err.code === 'IncompleteBody') message = err.message;
    // A key past 1024 bytes, to read or to write: AWS answers KeyTooLongError either way.
    if (typeof err.details.nameBytes === 'number') {
      ({ status, code, message } = KEY_TOO_LONG);
      extra.Size = String(err.details.nameBytes);
      extra.MaxSizeAllowed = String(err.details.maxNameBytes);
    }
    if (err.code === 'InvalidRange' && typeof err.details.size === 'number') {
      headers['Content-Range'] = `bytes */${err.details.size}`;
      extra.ActualObjectSize = String(err.details.size);
    }
    // NoSuchKey over a delete marker, or a read of the marker itself (405): say so (§25).
    if (err.details.deleteMarker || err.code === 'DeleteMarker') {
      headers['x-amz-delete-marker'] = 'true';
      if (typeof err.details.versionId === 'string') headers['x-amz-version-id'] = err.details.versionId;
      if (typeof err.details.lastModified === 'number') headers['Last-Modified'] = new Date(err.details.lastModified).toUTCString();
    }
  } else throw err;
  const { bucket, key } = call.address;
  const body = [el('Code', code), el('Message', message), ...(key !== undefined ? [el('Key', key)] : []), ...(bucket !== undefined ? [el('BucketName', bucket)] : [])];
  for (const [k, v] of Object.entries(extra)) body.push(el(k, v));
  body.push(el('RequestId', call.x.id), el('HostId', call.x.id));
  sendXml(call.x, status, el('Error', body), headers);
}
