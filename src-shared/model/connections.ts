import { z } from 'zod';

/**
 * The settings of a remote connection, with its secrets required (`secret`) or, when a saved
 * connection is edited, optional (an empty or missing one keeps the saved secret).
 */
function configSchema<S extends z.ZodType<string | undefined>>(secret: S) {
  /** How the app reaches a remote native (Swift) account. Secrets travel in, never back out. */
  const swift = z.object({
    kind: z.literal('swift'),
    authUrl: z.url(),
    auth: z.discriminatedUnion('type', [
      z.object({ type: z.literal('v1'), user: z.string().min(1), key: secret }),
      z.object({
        type: z.literal('password'),
        user: z.string().min(1),
        userDomain: z.string().default('Default'),
        password: secret,
        project: z.string().min(1),
        projectDomain: z.string().default('Default'),
      }),
      z.object({ type: z.literal('application-credential'), id: z.string().min(1), secret }),
      z.object({ type: z.literal('token'), token: secret, storageUrl: z.url() }),
    ]),
    region: z.string().optional(),
    interface: z.enum(['public', 'internal', 'admin']).default('public'),
  });
  /** How the app reaches a remote compatible (S3) endpoint. */
  const s3 = z.object({
    kind: z.literal('s3'),
    endpoint: z.url(),
    region: z.string().min(1).default('us-east-1'),
    accessKeyId: z.string().min(1),
    secretAccessKey: secret,
    sessionToken: z.string().optional(),
    forcePathStyle: z.boolean().default(true),
  });
  return z.discriminatedUnion('kind', [swift, s3]);
}

export const connectionConfigSchema = configSchema(z.string().min(1));
export type ConnectionConfig = z.infer<typeof connectionConfigSchema>;

/** A saved connection's settings as edited: secrets left empty keep the saved ones. */
export const connectionEditSchema = configSchema(z.string().optional());
export type ConnectionEdit = z.infer<typeof connectionEditSchema>;

export type ConnectionState = 'connected' | 'error' | 'unknown';

/** A connection as the renderer sees it: no secrets. */
export interface ConnectionInfo {
  id: string;
  kind: 'local' | 'swift' | 's3';
  name: string;
  /** Where it points (auth URL or endpoint); the local store's own URL. */
  endpoint: string;
  state: ConnectionState;
  /** The last error text the server gave, when state is 'error'. */
  error: string | null;
  /** The local store: the id of the account shown (the store can hold several). */
  account?: string;
}

export { LOCAL_CONNECTION_ID } from './local-connection.js';
