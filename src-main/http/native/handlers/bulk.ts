import { STATUS_CODES } from 'node:http';
import { BULK_DELETE_LIMITS, decide, Engine, type DeleteReport, type DeleteTarget, type Identity } from '../../../engine/index.js';
import { consumeBody, type Exchange } from '../../common/exchange.js';
import { decodeStrict, encodePath } from '../../common/url.js';
import { el, xmlDocument } from '../../common/xml.js';
import { NATIVE_ERRORS, NativeError } from '../errors.js';
import { REPORT_CONTENT_TYPES, type ListingFormat } from '../listing-format.js';
import type { NativeOpOf } from '../operation.js';
import { baseHeaders, type NativeCall } from '../respond.js';

/** Longest path line Swift accepts (container + object name + slashes), before URL-encoding. */
const MAX_PATH_LENGTH = 1024 + 256 + 2;

const statusLine = (status: number) => `${status} ${STATUS_CODES[status] ?? ''}`.trim();

/** How one failed path reads in a bulk response: Swift's status line, or its message for a refused request. */
function failureText(f: DeleteReport['errors'][number], who: Identity): string {
  if (f.code === 'AccessDenied') return statusLine(who.account === undefined ? 401 : 403);
  if (f.code === 'InvalidArgument') return f.message;
  return statusLine(NATIVE_ERRORS[f.code].status);
}

/**
 * Renders a bulk-delete report (bulk delete and `?multipart-manifest=delete`) in Swift's shape:
 * always HTTP 200, the outcome in "Response Status" (§10.3), as JSON, XML or plain text per Accept.
 */
export function sendDeleteReport(x: Exchange, who: Identity, format: ListingFormat, report: DeleteReport, type = REPORT_CONTENT_TYPES[format], refused?: number): void {
  let status = '200 OK';
  let body = '';
  if (refused !== undefined) status = statusLine(refused);
  else if (report.errors.length > 0) {
    const serverError = report.errors.some((e) => e.code !== 'AccessDenied' && NATIVE_ERRORS[e.code].status >= 500);
    status = statusLine(serverError ? 502 : 400);
  } else if (report.deleted === 0 && report.notFound === 0) {
    status = statusLine(400);
    body = 'Invalid bulk delete.';
  }
  const fields: [string, string | number][] = [
    ['Number Deleted', report.deleted],
    ['Number Not Found', report.notFound],
    ['Response Body', body],
    ['Response Status', status],
  ];
  const errors = report.errors.map((e) => [encodePath(e.path), failureText(e, who)] as const);
  let text: string;
  if (format === 'json') {
    text = JSON.stringify({ ...Object.fromEntries(fields), Errors: errors });
  } else if (format === 'xml') {
    const tag = (k: string) => k.replace(/ /g, '_').toLowerCase();
    const items = errors.map(([n, s]) => el('object', [el('name', n), el('status', s)]));
    text = xmlDocument(el('delete', [...fields.map(([k, v]) => el(tag(k), v)), el('errors', items)]));
  } else {
    text = fields.map(([k, v]) => `${k}: ${v}\n`).join('') + 'Errors:\n' + errors.map(([n, s]) => `${n}, ${s}\n`).join('');
  }
  // As Swift's bulk middleware: the type it matched, no charset, and chunked (its report is a
  // generator that may send whitespace before it knows the outcome).
  x.sendPieces(200, baseHeaders(x, type), [text]);
}

/** The body's newline-separated, URL-encoded `/container[/object]` paths, or the error to answer with. */
async function readTargets(x: Exchange): Promise<DeleteTarget[]> {
  const decoder = new TextDecoder();
  const targets: DeleteTarget[] = [];
  let pending = '';
  const take = (line: string): NativeError | undefined => {
    const trimmed = line.trim();
    if (!trimmed) return undefined;
    const path = decodeStrict(trimmed)?.replace(/^\/+/, '');
    if (path === undefined || path.length > MAX_PATH_LENGTH) return new NativeError(400, 'Invalid File Name');
    const slash = path.indexOf('/');
    if (slash < 0) targets.push({ container: path });
    else if (slash > 0) targets.push({ container: path.slice(0, slash), name: path.slice(slash + 1) });
    if (targets.length > BULK_DELETE_LIMITS.maxDeletesPerRequest) {
      return new NativeError(413, `Maximum Bulk Deletes: ${BULK_DELETE_LIMITS.maxDeletesPerRequest} per request`);
    }
    return undefined;
  };
  let problem: NativeError | undefined;
  const how = await consumeBody(x.req, (chunk) => {
    pending += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      problem = take(pending.slice(0, nl));
      if (problem) return 'stop';
      pending = pending.slice(nl + 1);
    }
    if (pending.length > MAX_PATH_LENGTH * 6) problem = new NativeError(400, 'Invalid File Name');
    return problem ? 'stop' : 'more';
  });
  if (how === 'stopped') throw problem!;
  const last = take(pending + decoder.decode());
  if (last) throw last;
  return targets;
}

/**
 * `POST|DELETE /v1/AUTH_acct?bulk-delete` (§10.3): deletes the listed objects and containers of
 * the account's tenant, each one only if the caller may (owner, or a write ACL for objects).
 */
export async function bulkDelete(call: NativeCall<NativeOpOf<'BulkDelete'>>): Promise<void> {
  const { x, ctx, who, op } = call;
  // As Swift's bulk middleware: the answer has begun (200) when it finds no type to report in,
  // so the refusal is the report's, in plain text under swob's default type; nothing is deleted.
  if (!op.format) return sendDeleteReport(x, who, 'plain', { deleted: 0, notFound: 0, errors: [] }, 'text/html; charset=UTF-8', 406);
  if (op.contentType !== undefined && !op.contentType.startsWith('text/plain')) throw new NativeError(406);
  if (!op.framed) throw new NativeError(411);
  const targets = await readTargets(x);
  const { tenant } = Engine.ref(call.account, '');
  const report = await ctx.engine.deleteMany(tenant, targets, (c, name) => decide({ who, container: c, action: name === undefined ? 'admin' : 'write-object', through: call.account, accountAcl: () => ctx.engine.accountAcl(c.owner) }));
  sendDeleteReport(x, who, op.format, report, op.reportType);
}
