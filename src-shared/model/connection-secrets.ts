// Which settings of a remote connection are secrets: what never goes back to the renderer, and
// what an edit may leave empty to keep. Pure and zod-free, so the renderer can use the types.
import type { ConnectionConfig, ConnectionEdit } from './connections.js';

type S3Config = Extract<ConnectionConfig, { kind: 's3' }>;
type SwiftConfig = Extract<ConnectionConfig, { kind: 'swift' }>;
type SwiftAuthType = SwiftConfig['auth']['type'];

const S3_SECRETS = ['secretAccessKey', 'sessionToken'] as const;
/** The one secret of each Swift sign-in type. */
const SWIFT_SECRET = { v1: 'key', password: 'password', 'application-credential': 'secret', token: 'token' } as const satisfies Record<SwiftAuthType, string>;
type SwiftSecretOf = typeof SWIFT_SECRET;
type AuthWithoutSecret<A> = A extends { type: infer T extends SwiftAuthType } ? Omit<A, SwiftSecretOf[T]> : never;

/** A saved connection's settings without its secrets: what the edit dialog is filled with. */
export type ConnectionSettings = Omit<S3Config, (typeof S3_SECRETS)[number]> | (Omit<SwiftConfig, 'auth'> & { auth: AuthWithoutSecret<SwiftConfig['auth']> });

function omit<T extends object>(value: T, keys: readonly string[]): T {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k))) as T;
}

export function withoutSecrets(config: ConnectionConfig): ConnectionSettings {
  if (config.kind === 's3') return omit(config, S3_SECRETS);
  return { ...config, auth: omit(config.auth, [SWIFT_SECRET[config.auth.type]]) };
}

const blank = (v: unknown) => v === undefined || v === '';

/**
 * The edited settings, each secret left empty taken from the saved ones. Saved secrets are kept
 * only for the same kind and sign-in type; otherwise an empty secret is named as missing.
 */
export function keepSecrets(edit: ConnectionEdit, saved: ConnectionConfig): { config: ConnectionConfig } | { missing: string } {
  if (edit.kind === 's3') {
    const from = saved.kind === 's3' ? saved : undefined;
    const secretAccessKey = blank(edit.secretAccessKey) ? from?.secretAccessKey : edit.secretAccessKey;
    if (secretAccessKey === undefined) return { missing: 'secretAccessKey' };
    const sessionToken = blank(edit.sessionToken) ? from?.sessionToken : edit.sessionToken;
    return { config: { ...edit, secretAccessKey, sessionToken } };
  }
  const field = SWIFT_SECRET[edit.auth.type];
  const given = (edit.auth as Record<string, unknown>)[field];
  if (!blank(given)) return { config: edit as ConnectionConfig };
  if (saved.kind !== 'swift' || saved.auth.type !== edit.auth.type) return { missing: field };
  return { config: { ...edit, auth: { ...edit.auth, [field]: (saved.auth as Record<string, unknown>)[field] } } as ConnectionConfig };
}
