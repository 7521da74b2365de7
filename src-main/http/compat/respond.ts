import { isCofferError } from '../../../src-shared/errors.js';
import type { ContainerInfo, ContainerRef, Engine, Identity } from '../../engine/index.js';
import type { Exchange, HeaderValues } from '../common/exchange.js';
import { el, xmlDocument, xmlDocumentPieces, type XmlNode } from '../common/xml.js';
import { KEY_TOO_LONG, S3_ERRORS, S3Error } from './errors.js';
import type { S3Operation } from './operation.js';
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

/** A parsed, authenticated S3 request on its way to a handler: its operation carries every parameter. */
export interface S3Call<O extends S3Operation = S3Operation> {
  x: Exchange;
  ctx: CompatContext;
  who: Identity;
  signing: SigV4Context | undefined;
  op: O;
}

/** The bucket a call addresses (explicit tenant, else the caller's) and its record. */
export interface BucketCall<O extends S3Operation = S3Operation> extends S3Call<O> {
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

/**
 * A document in the S3 namespace sent piece by piece with chunked transfer encoding and no
 * Content-Length (the seed's C1; RGW streams its listings the same way).
 */
export function sendXmlStreamed(x: Exchange, status: number, rootName: string, children: XmlNode[]): void {
  x.sendPieces(status, {}, xmlDocumentPieces(rootName, children, { xmlns: S3_NS }), s3Headers(x, 'application/xml'));
}

/** A root element in the S3 namespace. */
export function s3Root(name: string, children: XmlNode[]): XmlNode {
  return el(name, children, { xmlns: S3_NS });
}

/** Renders any failure as the S3 error XML (§19.1); HEAD answers carry no body. */
export function sendError(call: { x: Exchange; address: S3Address }, err: unknown): void {
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
    // The engine's words where they name what did not match (a checksum, the body's length, when
    // it gave them); a wrong Content-MD5 reads as AWS says it, whichever body it was.
    if ((err.code === 'BadDigest' && typeof err.details.checksum === 'string') || (err.code === 'IncompleteBody' && err.message !== err.code) || err.code === 'ChecksumTypeMismatch') message = err.message;
    // Object lock's refusals say which rule refused (AWS's words where it has its own).
    if (err.details.objectLock) message = err.message;
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
