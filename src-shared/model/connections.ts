import { z } from 'zod';

/** How the app reaches a remote native (Swift) account. Secrets travel in, never back out. */
export const swiftConfigSchema = z.object({
  kind: z.literal('swift'),
  authUrl: z.url(),
  auth: z.discriminatedUnion('type', [
    z.object({ type: z.literal('v1'), user: z.string().min(1), key: z.string().min(1) }),
    z.object({
      type: z.literal('password'),
      user: z.string().min(1),
      userDomain: z.string().default('Default'),
      password: z.string().min(1),
      project: z.string().min(1),
      projectDomain: z.string().default('Default'),
    }),
    z.object({ type: z.literal('application-credential'), id: z.string().min(1), secret: z.string().min(1) }),
    z.object({ type: z.literal('token'), token: z.string().min(1), storageUrl: z.url() }),
  ]),
  region: z.string().optional(),
  interface: z.enum(['public', 'internal', 'admin']).default('public'),
});

/** How the app reaches a remote compatible (S3) endpoint. */
export const s3ConfigSchema = z.object({
  kind: z.literal('s3'),
  endpoint: z.url(),
  region: z.string().min(1).default('us-east-1'),
  accessKeyId: z.string().min(1),
  secretAccessKey: z.string().min(1),
  sessionToken: z.string().optional(),
  forcePathStyle: z.boolean().default(true),
});

export const connectionConfigSchema = z.discriminatedUnion('kind', [swiftConfigSchema, s3ConfigSchema]);
export type ConnectionConfig = z.infer<typeof connectionConfigSchema>;

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
}

export { LOCAL_CONNECTION_ID } from './local-connection.js';
