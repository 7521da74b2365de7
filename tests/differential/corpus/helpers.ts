// Shorthands the corpus tables are written with: they build rows, they hold no logic of their own.
import { createHash } from 'node:crypto';
import type { Req, Row } from '../types.js';

export const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

/** The fixture objects' bodies (fixtures.ts) and their ETags, for conditionals. */
export const OBJ_BODY = 'The quick brown fox jumps over the lazy dog\n';
export const OBJ_ETAG = md5(OBJ_BODY);
export const OBJ_SIZE = Buffer.byteLength(OBJ_BODY);

type RowExtra = Omit<Row, 'id' | 'api' | 'request'>;

/** A native row: `n('object.get', { method: 'GET', path: '/{f:objects}/obj' })`. */
export const n = (id: string, request: Req, extra: RowExtra = {}): Row => ({ id: `native.${id}`, api: 'native', request, ...extra });
/** An S3 row. */
export const s = (id: string, request: Req, extra: RowExtra = {}): Row => ({ id: `s3.${id}`, api: 's3', request, ...extra });

export const GET = (path: string, more: Partial<Req> = {}): Req => ({ method: 'GET', path, ...more });
export const HEAD = (path: string, more: Partial<Req> = {}): Req => ({ method: 'HEAD', path, ...more });
export const PUT = (path: string, more: Partial<Req> = {}): Req => ({ method: 'PUT', path, ...more });
export const POST = (path: string, more: Partial<Req> = {}): Req => ({ method: 'POST', path, ...more });
export const DELETE = (path: string, more: Partial<Req> = {}): Req => ({ method: 'DELETE', path, ...more });
export const COPY = (path: string, more: Partial<Req> = {}): Req => ({ method: 'COPY', path, ...more });

/** Set-up: the row's own container (native) or bucket (S3), with one text object in it. */
export const OWN_C: Req[] = [PUT('/{c}')];
export const OWN_C_OBJ: Req[] = [PUT('/{c}'), PUT('/{c}/obj', { body: OBJ_BODY, headers: { 'Content-Type': 'text/plain', 'X-Object-Meta-Color': 'red' } })];
export const OWN_B: Req[] = [PUT('/{b}')];
export const OWN_B_OBJ: Req[] = [PUT('/{b}'), PUT('/{b}/obj', { body: OBJ_BODY, headers: { 'Content-Type': 'text/plain', 'x-amz-meta-color': 'red' } })];

/** One S3 XML document, declaration included. */
export const xmlDoc = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>${body}`;
export const S3NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
