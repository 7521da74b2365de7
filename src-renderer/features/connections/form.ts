// The connection form's state: filled from a saved connection's settings (secrets stay empty),
// and how it becomes a ConnectionConfig, or an edit whose empty secrets keep the saved ones (or
// which field is missing).
import type { ConnectionSettings } from '../../../src-shared/model/connection-secrets';
import type { ConnectionConfig, ConnectionEdit } from '../../../src-shared/model/connections';
import { strings } from '../../app/strings';

export type AuthType = 'v1' | 'password' | 'application-credential';

export interface ConnectionForm {
  name: string;
  kind: 'swift' | 's3';
  authUrl: string;
  authType: AuthType;
  user: string;
  key: string;
  userDomain: string;
  project: string;
  projectDomain: string;
  password: string;
  appCredId: string;
  appCredSecret: string;
  region: string;
  endpoint: string;
  s3Region: string;
  accessKey: string;
  secretKey: string;
  pathStyle: boolean;
}

export function emptyForm(kind: 'swift' | 's3' = 's3', name = '', endpoint = ''): ConnectionForm {
  return {
    name,
    kind,
    authUrl: kind === 'swift' ? endpoint : '',
    authType: 'v1',
    user: '',
    key: '',
    userDomain: 'Default',
    project: '',
    projectDomain: 'Default',
    password: '',
    appCredId: '',
    appCredSecret: '',
    region: '',
    endpoint: kind === 's3' ? endpoint : '',
    s3Region: 'us-east-1',
    accessKey: '',
    secretKey: '',
    pathStyle: true,
  };
}

/** A saved connection as the form shows it: every setting but the secrets. */
export function formFrom(name: string, c: ConnectionSettings): ConnectionForm {
  const f = emptyForm(c.kind, name);
  if (c.kind === 's3') return { ...f, endpoint: c.endpoint, s3Region: c.region, accessKey: c.accessKeyId, pathStyle: c.forcePathStyle };
  const swift = { ...f, authUrl: c.authUrl, region: c.region ?? '' };
  const a = c.auth;
  if (a.type === 'password') return { ...swift, authType: 'password', user: a.user, userDomain: a.userDomain, project: a.project, projectDomain: a.projectDomain };
  if (a.type === 'application-credential') return { ...swift, authType: 'application-credential', appCredId: a.id };
  // A token cannot be edited here: the form asks for v1 settings instead.
  return a.type === 'v1' ? { ...swift, authType: 'v1', user: a.user } : swift;
}

const s = strings.connections;

/** The configuration, or the first problem in words. */
export function toConfig(f: ConnectionForm): { config: ConnectionConfig } | { problem: string } {
  return build(f, true) as { config: ConnectionConfig } | { problem: string };
}

/** An edit of a saved connection: secrets left empty keep the saved ones. */
export function toEdit(f: ConnectionForm): { config: ConnectionEdit } | { problem: string } {
  return build(f, false);
}

function build(f: ConnectionForm, secretsRequired: boolean): { config: ConnectionEdit } | { problem: string } {
  const need = (value: string, label: string) => (value.trim() === '' ? s.required(label) : null);
  const needSecret = (value: string, label: string) => (secretsRequired ? need(value, label) : null);
  const first = (...checks: (string | null)[]) => checks.find((c) => c !== null) ?? null;
  if (f.kind === 's3') {
    const problem = first(need(f.endpoint, s.endpoint), need(f.accessKey, s.accessKey), needSecret(f.secretKey, s.secretKey));
    if (problem) return { problem };
    return {
      config: {
        kind: 's3',
        endpoint: f.endpoint.trim(),
        region: f.s3Region.trim() || 'us-east-1',
        accessKeyId: f.accessKey.trim(),
        secretAccessKey: f.secretKey,
        forcePathStyle: f.pathStyle,
      },
    };
  }
  const region = f.region.trim() ? { region: f.region.trim() } : {};
  const base = { kind: 'swift' as const, authUrl: f.authUrl.trim(), interface: 'public' as const, ...region };
  if (f.authType === 'v1') {
    const problem = first(need(f.authUrl, s.authUrl), need(f.user, s.user), needSecret(f.key, s.key));
    return problem ? { problem } : { config: { ...base, auth: { type: 'v1', user: f.user.trim(), key: f.key } } };
  }
  if (f.authType === 'password') {
    const problem = first(need(f.authUrl, s.authUrl), need(f.user, s.user), need(f.project, s.project), needSecret(f.password, s.password));
    if (problem) return { problem };
    return {
      config: {
        ...base,
        auth: {
          type: 'password',
          user: f.user.trim(),
          userDomain: f.userDomain.trim() || 'Default',
          project: f.project.trim(),
          projectDomain: f.projectDomain.trim() || 'Default',
          password: f.password,
        },
      },
    };
  }
  const problem = first(need(f.authUrl, s.authUrl), need(f.appCredId, s.appCredId), needSecret(f.appCredSecret, s.appCredSecret));
  return problem ? { problem } : { config: { ...base, auth: { type: 'application-credential', id: f.appCredId.trim(), secret: f.appCredSecret } } };
}
