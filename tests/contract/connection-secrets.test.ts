// What never leaves main of a saved connection (its secrets) and how an edit keeps them: pure
// functions over each kind and sign-in type, and the contract's schemas that accept such edits.
import { describe, expect, it } from 'vitest';
import { keepSecrets, withoutSecrets } from '../../src-shared/model/connection-secrets.js';
import { connectionConfigSchema, connectionEditSchema, type ConnectionConfig } from '../../src-shared/model/connections.js';
import { schemaOf } from '../../src-shared/contract/manifest.js';

const authUrl = 'https://swift.example/auth/v1.0';
const configs: ConnectionConfig[] = [
  connectionConfigSchema.parse({ kind: 's3', endpoint: 'https://s3.example', accessKeyId: 'AK', secretAccessKey: 'SK-secret', sessionToken: 'ST-secret' }),
  connectionConfigSchema.parse({ kind: 'swift', authUrl, auth: { type: 'v1', user: 'acct:user', key: 'K-secret' } }),
  connectionConfigSchema.parse({ kind: 'swift', authUrl, auth: { type: 'password', user: 'ann', password: 'P-secret', project: 'proj' } }),
  connectionConfigSchema.parse({ kind: 'swift', authUrl, auth: { type: 'application-credential', id: 'cred-1', secret: 'A-secret' } }),
  connectionConfigSchema.parse({ kind: 'swift', authUrl, auth: { type: 'token', token: 'T-secret', storageUrl: 'https://swift.example/v1/AUTH_x' } }),
];

describe('a saved connection without its secrets', () => {
  it.each(configs.map((c) => [c.kind === 's3' ? 's3' : c.auth.type, c] as const))('%s: keeps every other setting, no secret', (_label, config) => {
    const settings = withoutSecrets(config);
    expect(JSON.stringify(settings)).not.toContain('-secret');
    if (config.kind === 's3') expect(settings).toEqual({ kind: 's3', endpoint: 'https://s3.example', region: 'us-east-1', accessKeyId: 'AK', forcePathStyle: true });
    else expect(Object.keys(settings.kind === 'swift' ? settings.auth : {}).length).toBe(Object.keys(config.auth).length - 1);
  });

  it.each(configs.map((c) => [c.kind === 's3' ? 's3' : c.auth.type, c] as const))('%s: an edit with the secrets left empty gets the saved ones back', (_label, config) => {
    const edit = connectionEditSchema.parse(withoutSecrets(config));
    expect(keepSecrets(edit, config)).toEqual({ config });
  });

  it('keeps a secret only for the same kind and sign-in type; a typed secret wins', () => {
    const [s3, v1, password] = configs;
    expect(keepSecrets(connectionEditSchema.parse({ ...withoutSecrets(v1!), auth: { type: 'v1', user: 'other:user', key: '' } }), v1!)).toEqual({
      config: { ...v1, auth: { type: 'v1', user: 'other:user', key: 'K-secret' } },
    });
    expect(keepSecrets(connectionEditSchema.parse({ ...withoutSecrets(v1!), auth: { type: 'password', user: 'ann', project: 'p' } }), v1!)).toEqual({ missing: 'password' });
    expect(keepSecrets(connectionEditSchema.parse({ kind: 's3', endpoint: 'https://s3.example', accessKeyId: 'AK' }), password!)).toEqual({ missing: 'secretAccessKey' });
    expect(keepSecrets(connectionEditSchema.parse({ ...withoutSecrets(s3!), secretAccessKey: 'new' }), s3!)).toMatchObject({ config: { secretAccessKey: 'new', sessionToken: 'ST-secret' } });
  });

  it('the contract takes edits without secrets, and refuses an untried configuration without them', () => {
    const update = schemaOf('accounts.update')!;
    expect(update.safeParse({ id: 'x', config: { kind: 's3', endpoint: 'https://s3.example', accessKeyId: 'AK', secretAccessKey: '' } }).success).toBe(true);
    const test = schemaOf('accounts.test')!;
    const bare = { kind: 'swift', authUrl, auth: { type: 'v1', user: 'u', key: '' } };
    expect(test.safeParse({ config: bare }).error?.issues[0]).toMatchObject({ path: ['config'], message: 'Enter every setting, secrets included' });
    expect(test.safeParse({ config: bare, id: 'saved-1' }).success).toBe(true);
    expect(schemaOf('accounts.add')!.safeParse({ name: 'n', config: bare }).success).toBe(false);
  });

  it('names local accounts up to their longest id, and sub-users only with a name', () => {
    const longId = `local:${'t'.repeat(20)}$${'n'.repeat(235)}`;
    expect(schemaOf('browse.listContainers')!.safeParse({ account: longId }).success).toBe(true);
    expect(schemaOf('accounts.info')!.safeParse({ id: longId }).success).toBe(true);
    expect(schemaOf('transfers.planUpload')!.safeParse({ account: longId, container: 'c' }).success).toBe(true);
    expect(schemaOf('localStore.addKey')!.safeParse({ account: 'a', kind: 'swift' }).success).toBe(false);
    expect(schemaOf('localStore.addKey')!.safeParse({ account: 'a', kind: 'swift', subuser: ' backup ' }).data).toEqual({ account: 'a', kind: 'swift', subuser: 'backup' });
    expect(schemaOf('localStore.chooseAccount')!.safeParse({ account: '' }).success).toBe(false);
  });
});
