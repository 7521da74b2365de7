// How an error from the contract reads to the user: unreachable server, expired session, or the
// server's own message.
import { SESSION_EXPIRED } from '../api/transport';
import { strings } from './strings';

export type ErrorKind = 'unreachable' | 'session' | 'credentials' | 'other';

export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function errorKind(err: unknown): ErrorKind {
  const code = errorCode(err);
  if (code === 'Unreachable') return 'unreachable';
  if (code === 'AuthFailed') return errorMessage(err).startsWith(SESSION_EXPIRED) ? 'session' : 'credentials';
  return 'other';
}

export function describeError(err: unknown): { kind: ErrorKind; title: string; body: string | null; detail: string } {
  const kind = errorKind(err);
  const detail = strings.errors.detail(errorMessage(err));
  if (kind === 'unreachable') return { kind, title: strings.errors.unreachableTitle, body: strings.errors.unreachableBody, detail };
  if (kind === 'session') return { kind, title: strings.errors.sessionTitle, body: strings.errors.sessionBody, detail };
  if (kind === 'credentials') return { kind, title: strings.errors.credentialsTitle, body: strings.errors.credentialsBody, detail };
  return { kind, title: strings.errors.genericTitle, body: null, detail: errorMessage(err) };
}
