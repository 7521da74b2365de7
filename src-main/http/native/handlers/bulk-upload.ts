import { isCofferError } from '../../../../src-shared/errors.js';
import { decide, Engine, type ContainerInfo } from '../../../engine/index.js';
import { abortedBy, type Exchange } from '../../common/exchange.js';
import { httpDate } from '../../common/dates.js';
import { encodePath } from '../../common/url.js';
import { ArchiveError, readArchive, type ArchiveMember } from '../archive.js';
import { NATIVE_ERRORS, NativeError } from '../errors.js';
import { REPORT_CONTENT_TYPES, type ListingFormat } from '../listing-format.js';
import { metaProblem } from '../metadata.js';
import type { NativeOpOf } from '../operation.js';
import { refusal } from '../reach.js';
import { baseHeaders, type NativeCall } from '../respond.js';

/** Swift's bulk middleware defaults, published in /info as `bulk_upload`. */
export const BULK_UPLOAD_LIMITS = { max_containers_per_extraction: 10000, max_failed_extractions: 1000 };
/** Swift's `yield_frequency`: after this long without a word, the answer starts and whitespace keeps it alive. */
const YIELD_MS = 10_000;
/** Longest path a report names (container + object name + slashes), as Swift cuts them. */
const MAX_PATH_LENGTH = 1024 + 256 + 2;

/** swob's reason phrases: the report's statuses read as Swift's do. */
const REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
  408: 'Request Timeout', 409: 'Conflict', 411: 'Length Required', 412: 'Precondition Failed', 413: 'Request Entity Too Large',
  416: 'Requested Range Not Satisfiable', 422: 'Unprocessable Entity', 499: 'Client Disconnect', 500: 'Internal Error',
  501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 507: 'Insufficient Storage',
};
export const swiftStatus = (status: number) => `${status} ${REASONS[status] ?? ''}`.trim();

/** The status a refusal of one container or file reads as. */
function statusOf(err: unknown): number {
  if (err instanceof NativeError) return err.status;
  if (isCofferError(err)) return NATIVE_ERRORS[err.code].status;
  throw err;
}

interface Report {
  status: string;
  body: string;
  created: number;
  errors: [string, string][];
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The report as Swift's get_response_body writes it: JSON in its dict's order, XML and plain text by sorted key. */
export function renderReport(format: ListingFormat | undefined, r: Report): string {
  if (format === 'json') return JSON.stringify({ 'Response Status': r.status, 'Response Body': r.body, 'Number Files Created': r.created, Errors: r.errors });
  const fields: [string, string | number][] = [['Number Files Created', r.created], ['Response Body', r.body], ['Response Status', r.status]];
  if (format === 'xml') {
    const tag = (k: string) => k.replace(/ /g, '_').toLowerCase();
    const items = r.errors.map(([n, s]) => `<object><name>${xmlEscape(n)}</name><status>${xmlEscape(s)}</status></object>\n`).join('');
    return `<extract>\n${fields.map(([k, v]) => `<${tag(k)}>${xmlEscape(String(v))}</${tag(k)}>\n`).join('')}<errors>\n${items}</errors>\n</extract>\n`;
  }
  return fields.map(([k, v]) => `${k}: ${v}\n`).join('') + 'Errors:\n' + r.errors.map(([n, s]) => `${n}, ${s}\n`).join('');
}


/**
 * The answer: always 200, the outcome in the report. As Swift's, it starts only when the report
 * is ready or once an extraction has gone 10 s without a word (chunked; whitespace then, at
 * most every 10 s between files, keeps clients and proxies from timing out).
 */
class Answer {
  private started = false;
  private lastWord = Date.now();
  private separator = '';
  private keepAlive: string;

  constructor(
    private readonly x: Exchange,
    private readonly format: ListingFormat | undefined,
    /** The report's Content-Type as the Accept header asked for it (text/xml or application/xml). */
    private readonly reportType?: string,
  ) {
    this.keepAlive = format === 'xml' ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ' ';
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.x.status = 200;
    const type = this.format ? (this.reportType ?? REPORT_CONTENT_TYPES[this.format]) : 'text/html; charset=UTF-8';
    this.x.res.writeHead(200, { Date: httpDate(Date.now()), ...baseHeaders(this.x, type) });
  }

  /** Between files: a word if the client has heard nothing for a while. */
  tick(): void {
    if (Date.now() - this.lastWord < YIELD_MS) return;
    this.lastWord = Date.now();
    this.start();
    this.x.res.write(this.keepAlive);
    this.keepAlive = ' ';
    this.separator = '\r\n\r\n';
  }

  finish(report: Report): void {
    this.start();
    this.x.res.end(this.separator + renderReport(this.format, report));
  }
}

/** A refusal of the whole request (no valid token) told as Swift's bulk middleware tells it: in a 200 report. */
export function sendArchiveRefusal(x: Exchange, op: NativeOpOf<'ExtractArchive'>, err: unknown): boolean {
  const refused = (err instanceof NativeError && err.status === 401) || isCofferError(err, 'AuthFailed') || isCofferError(err, 'AccessDenied');
  if (!refused || x.res.headersSent) return false;
  new Answer(x, op.format, op.reportType).finish({ status: swiftStatus(statusOf(err)), body: '', created: 0, errors: [] });
  return true;
}

interface Extraction {
  call: NativeCall<NativeOpOf<'ExtractArchive'>>;
  report: Report;
  /** Containers already reached (created or found) by an earlier file. */
  reached: Set<string>;
  containersCreated: number;
  /** 400, or 502 once a file failed on the server's side. */
  failedStatus: number;
}

/** Finds the file's container, or makes it (Swift: HEAD, then PUT when 404). True when made. */
async function reachContainer(e: Extraction, name: string): Promise<boolean> {
  const { ctx, who, account } = e.call;
  const accountAcl = () => ctx.engine.accountAcl(account);
  let c: ContainerInfo | undefined;
  try {
    c = ctx.engine.getContainerForRequest(Engine.ref(account, name));
  } catch (err) {
    if (!isCofferError(err, 'NoSuchContainer')) throw err;
  }
  if (c) {
    if (!decide({ who, container: c, action: 'list', through: account, accountAcl })) throw refusal(who);
    return false;
  }
  if (!decide({ who, account, action: 'create-container', accountAcl })) throw refusal(who);
  try {
    await ctx.engine.createContainer(account, name);
    return true;
  } catch (err) {
    if (isCofferError(err, 'ContainerOwnedByYou')) return false;
    throw err;
  }
}

/** Stores one file as Swift's object PUT would: the caller's write access, the request's and the file's metadata. */
async function storeFile(e: Extraction, container: string, name: string, m: ArchiveMember): Promise<void> {
  const { ctx, who, account, op, x } = e.call;
  const c = ctx.engine.getContainerForRequest(Engine.ref(account, container));
  if (!decide({ who, container: c, action: 'write-object', through: account, accountAcl: () => ctx.engine.accountAcl(account), facts: { key: name } })) throw refusal(who);
  if (op.fields instanceof NativeError) throw op.fields;
  const meta = { ...op.fields.meta };
  let contentType: string | undefined;
  for (const [key, value] of Object.entries(m.pax)) {
    const attr = /^(?:SCHILY|LIBARCHIVE)\.xattr\.user\.(.*)$/s.exec(key)?.[1];
    if (attr === 'mime_type') contentType = value;
    else if (attr?.startsWith('meta.')) meta[attr.slice('meta.'.length).toLowerCase()] = value;
  }
  const problem = metaProblem('Object', meta);
  if (problem) throw new NativeError(400, problem);
  const ref = { tenant: c.tenant, container: c.name };
  // Legacy versioned writes: the version about to be replaced goes to the archive first, as a PUT's does.
  if (c.archive) await ctx.engine.archiveCurrent(ref, name);
  await ctx.engine.putObject(ref, name, m.body, { meta, headers: {}, contentType, deleteAt: op.fields.deleteAt, size: m.size, signal: abortedBy(x.req) });
}

/** One file of the archive (Swift's handle_extract_iter loop body). */
async function extractFile(e: Extraction, base: string, m: ArchiveMember): Promise<'more' | 'stop'> {
  const { call, report } = e;
  let path = m.path.startsWith('./') ? m.path.slice(2) : m.path;
  path = path.replace(/^\/+/, '');
  if (base) path = `${base}/${path}`;
  // Files at the account's top level name no container: skipped.
  if (!path.includes('/')) return 'more';
  const quoted = encodePath(path.slice(0, MAX_PATH_LENGTH));
  const fail = (status: number) => report.errors.push([quoted, swiftStatus(status)]);
  // A name that was not UTF-8 (node-tar decodes it with replacement characters): Swift's 412.
  if (path.includes('\uFFFD')) return fail(412), 'more';
  if (m.size > call.ctx.engine.options.maxObjectSize) return fail(413), 'more';
  const slash = path.indexOf('/');
  const container = path.slice(0, slash);
  let containerFailure: [string, string] | undefined;
  if (!e.reached.has(container)) {
    try {
      if (await reachContainer(e, container)) {
        e.containersCreated += 1;
        if (e.containersCreated > BULK_UPLOAD_LIMITS.max_containers_per_extraction) {
          throw new NativeError(400, `More than ${BULK_UPLOAD_LIMITS.max_containers_per_extraction} containers to create from tar.`);
        }
      }
    } catch (err) {
      if (err instanceof NativeError && err.status === 400 && err.body?.startsWith('More than')) throw err;
      const status = statusOf(err);
      // The file may still be stored (a write ACL without the right to list), as in Swift.
      containerFailure = [encodePath(`/v1/AUTH_${call.account}/${container}`.slice(0, MAX_PATH_LENGTH)), swiftStatus(status)];
      if (status === 401) throw new NativeError(401);
    }
  }
  try {
    await storeFile(e, container, path.slice(slash + 1), m);
    report.created += 1;
  } catch (err) {
    // A file cut short can only be the archive ending inside it: Swift's PUT then fails with 500.
    const status = isCofferError(err, 'IncompleteBody') ? 500 : statusOf(err);
    if (containerFailure) report.errors.push(containerFailure);
    if (status === 401) {
      fail(401);
      throw new NativeError(401);
    }
    if (status >= 500) e.failedStatus = 502;
    fail(status);
  } finally {
    e.reached.add(container);
  }
  return report.errors.length >= BULK_UPLOAD_LIMITS.max_failed_extractions ? 'stop' : 'more';
}

/**
 * `PUT /v1/AUTH_acct[/container[/prefix]]?extract-archive=tar|tar.gz|tar.bz2` (Swift's bulk
 * upload): each regular file of the archive, read as it streams in, becomes an object at
 * `<path>/<file path>`; containers are made as needed. Always 200; the report says how it went.
 */
export async function extractArchive(call: NativeCall<NativeOpOf<'ExtractArchive'>>): Promise<void> {
  const { x, op } = call;
  const report: Report = { status: swiftStatus(201), body: '', created: 0, errors: [] };
  const answer = new Answer(x, op.format, op.reportType);
  const e: Extraction = { call, report, reached: new Set(), containersCreated: 0, failedStatus: 400 };
  try {
    if (!op.format) throw new NativeError(406);
    if (!op.framed) throw new NativeError(411);
    const p = op.path;
    const base = ('object' in p ? `${p.container}/${p.object}` : 'container' in p ? p.container : '').replace(/\/+$/, '');
    await readArchive(x.req, op.compression, (m) => {
      answer.tick();
      return extractFile(e, base, m);
    });
    if (report.errors.length) report.status = swiftStatus(e.failedStatus);
    else if (report.created === 0) {
      report.status = swiftStatus(400);
      report.body = 'Invalid Tar File: No Valid Files';
    }
  } catch (err) {
    if (err instanceof ArchiveError) {
      report.status = swiftStatus(400);
      report.body = `Invalid Tar File: ${err.message}`;
    } else if (err instanceof NativeError) {
      report.status = swiftStatus(err.status);
      report.body = err.body ?? '';
    } else report.status = swiftStatus(isCofferError(err) ? NATIVE_ERRORS[err.code].status : 500);
  }
  answer.finish(report);
}
