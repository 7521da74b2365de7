import { CofferError, type CofferErrorCode } from '../../../src-shared/errors.js';

/** What a request addressed, so a 404 can say which thing is missing. */
export type ErrorTarget = 'account' | 'container' | 'object';

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** A failure below HTTP (DNS, TCP, TLS, timeouts) or a cancellation, as a CofferError. */
export function networkError(err: unknown, signal?: AbortSignal): CofferError {
  if (err instanceof CofferError) return err;
  const e = err as NodeJS.ErrnoException;
  if (signal?.aborted || e?.name === 'AbortError') return new CofferError('Aborted', 'The transfer was cancelled');
  const code = e?.code ?? '';
  const text = e?.message || String(err);
  // Node refuses to send a header it cannot encode (a metadata name with spaces, a value with a newline).
  if (code === 'ERR_INVALID_HTTP_TOKEN' || code === 'ERR_INVALID_CHAR') return new CofferError('InvalidArgument', text, { code });
  if (UNREACHABLE.has(code) || /socket hang up|timed? ?out/i.test(text)) {
    return new CofferError('Unreachable', `The server cannot be reached (${code || 'network error'}): ${text}`, { code });
  }
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || /certificate/i.test(text)) {
    return new CofferError('Unreachable', `TLS failed: ${text}`, { code });
  }
  return new CofferError('RemoteError', text, { code });
}

/** Network errors a retry may cure (a cancellation never is). */
export function isTransient(err: unknown): boolean {
  return err instanceof CofferError && err.code === 'Unreachable';
}

/** Statuses worth another try for an idempotent request: server errors, throttling (429, RGW's 498). */
export function retryableStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 498 || status === 408;
}

/** Swift bodies are HTML snippets, RGW ones plain codes: keep the text, drop the markup. */
export function bodyMessage(body: string): string {
  return body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);
}

/**
 * An HTTP error status as a CofferError (§14.1), the server's words kept in the message. Clients
 * rely on the status; the body only refines what the status leaves open (413: quota or size).
 */
export function statusError(status: number, body: string, target: ErrorTarget, what = ''): CofferError {
  const said = bodyMessage(body);
  const message = `${what ? `${what}: ` : ''}${status}${said ? ` ${said}` : ''}`;
  const code = ((): CofferErrorCode => {
    switch (status) {
      case 400:
        return /EntityTooLarge/i.test(said) ? 'EntityTooLarge' : 'InvalidArgument';
      case 401:
        return 'AuthFailed';
      case 403:
        // Swift's proxy refuses a container past max_containers_per_account so.
        return /Reached container limit/i.test(said) ? 'TooManyContainers' : 'AccessDenied';
      case 404:
        if (target === 'account') return 'NoSuchAccount';
        if (target === 'container' || /NoSuchBucket|NoSuchContainer/i.test(said)) return 'NoSuchContainer';
        return 'NoSuchKey';
      case 409:
        return /BucketAlreadyExists|already exists/i.test(said) ? 'ContainerExists' : 'ContainerNotEmpty';
      case 411:
        return 'InvalidArgument';
      case 412:
        return 'PreconditionFailed';
      case 413:
        return /quota/i.test(said) ? 'QuotaExceeded' : 'EntityTooLarge';
      case 416:
        return 'InvalidRange';
      case 422:
        return 'BadDigest';
      default:
        return 'RemoteError';
    }
  })();
  return new CofferError(code, message, { status });
}
