import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { IncomingMessage } from 'node:http';
import { readSmallBody } from '../common/exchange.js';
import { S3Error, s3 } from './errors.js';
import type { DocumentCheck } from './operation.js';
import { verifyDocument } from './payload.js';

const MAX_PARAM_BODY = 1024 * 1024;

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  // Keys may begin or end with spaces; text() trims the fields that are not keys.
  trimValues: false,
  // Character references too: Go clients (rclone, minio-go) write ETag quotes as &#34; and
  // encoding/xml escapes ', tab, CR and LF in keys numerically.
  htmlEntities: true,
  isArray: (name) => ['Part', 'Object', 'Grant', 'Statement', 'Tag', 'Rule', 'CORSRule', 'AllowedOrigin', 'AllowedMethod', 'AllowedHeader', 'ExposeHeader'].includes(name),
});

/** Reads and verifies a small request body (XML or JSON documents, ≤ 1 MiB, as RGW's rgw_max_put_param_size). */
export async function readParamBody(req: IncomingMessage, check: DocumentCheck): Promise<Buffer> {
  const body = await readSmallBody(req, MAX_PARAM_BODY);
  if (body === 'too-large') throw new S3Error(400, 'MaxMessageLengthExceeded', 'Your request was too big.');
  verifyDocument(check, body);
  return body;
}

/** Parses an XML request body; malformed or empty bodies are MalformedXML (§19.2). */
export async function readXml(req: IncomingMessage, check: DocumentCheck, allowEmpty = false): Promise<Record<string, unknown> | undefined> {
  const body = (await readParamBody(req, check)).toString('utf8');
  if (body.trim() === '') {
    if (allowEmpty) return undefined;
    throw s3.malformedXml();
  }
  return parseXmlText(body);
}

/** Parses an XML document given as text (a request body, a form field); malformed is MalformedXML. */
export function parseXmlText(body: string): Record<string, unknown> {
  // No S3 document has a DTD; refusing one keeps entity expansion and external entities out.
  if (/<!DOCTYPE|<!ENTITY/i.test(body) || XMLValidator.validate(body) !== true) throw s3.malformedXml();
  try {
    return parser.parse(body) as Record<string, unknown>;
  } catch {
    throw s3.malformedXml();
  }
}

/** A child element's text (trimmed unless `exact`, for object keys), or undefined. */
export function text(node: unknown, name: string, exact = false): string | undefined {
  const v = (node as Record<string, unknown> | undefined)?.[name];
  if (v === undefined || v === null) return undefined;
  const s = typeof v === 'object' ? '' : String(v);
  return exact ? s : s.trim();
}
