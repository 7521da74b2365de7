import type { ConnectionConfig } from '../../src-shared/model/connections.js';
import type { ObjectBackend } from './object-backend.js';
import { RemoteS3Backend } from './remote-compat.js';
import { RemoteNativeBackend } from './remote-native.js';

/** The backend for a remote connection's configuration (the contract's schema already checked it). */
export function makeRemoteBackend(config: ConnectionConfig): ObjectBackend {
  if (config.kind === 's3') {
    return new RemoteS3Backend({
      endpoint: config.endpoint,
      region: config.region,
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
      forcePathStyle: config.forcePathStyle,
      ...(config.sessionToken ? { sessionToken: config.sessionToken } : {}),
    });
  }
  const a = config.auth;
  const auth =
    a.type === 'password'
      ? { type: a.type, user: { name: a.user }, userDomain: { name: a.userDomain }, password: a.password, project: { name: a.project }, projectDomain: { name: a.projectDomain } }
      : a;
  return new RemoteNativeBackend({
    authUrl: config.authUrl,
    auth,
    interface: config.interface,
    ...(config.region ? { region: config.region } : {}),
  });
}
