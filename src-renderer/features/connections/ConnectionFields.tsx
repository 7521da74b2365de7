import { useId } from 'react';
import { strings } from '../../app/strings';
import type { AuthType, ConnectionForm } from './form';
import { TextField } from './TextField';

const s = strings.connections;

/**
 * The settings of a remote connection. `keptSecrets`: a saved connection is being edited, so its
 * secret fields start empty and an empty one keeps the saved secret (their placeholder says so).
 */
export function ConnectionFields({ form, set, keptSecrets }: { form: ConnectionForm; set: <K extends keyof ConnectionForm>(key: K) => (value: ConnectionForm[K]) => void; keptSecrets: boolean }) {
  const authTypeId = useId();
  const secret = keptSecrets ? { placeholder: s.keptSecret } : {};
  return (
    <>
      <fieldset className="kind-switch">
        <legend>{s.kind}</legend>
        {(['swift', 's3'] as const).map((kind) => (
          <label key={kind} className="check">
            <input type="radio" name="kind" checked={form.kind === kind} onChange={() => set('kind')(kind)} />
            {kind === 'swift' ? s.native : s.compatible}
          </label>
        ))}
      </fieldset>
      {form.kind === 'swift' ? (
        <>
          <TextField label={s.authUrl} type="url" value={form.authUrl} onChange={set('authUrl')} />
          <label htmlFor={authTypeId}>{s.authType}</label>
          <select id={authTypeId} value={form.authType} onChange={(e) => set('authType')(e.target.value as AuthType)}>
            {(['v1', 'password', 'application-credential'] as const).map((t) => (
              <option key={t} value={t}>
                {s.authTypes[t]}
              </option>
            ))}
          </select>
          {form.authType === 'v1' ? (
            <>
              <TextField label={s.user} value={form.user} onChange={set('user')} />
              <TextField label={s.key} secret value={form.key} onChange={set('key')} {...secret} />
            </>
          ) : null}
          {form.authType === 'password' ? (
            <>
              <TextField label={s.user} value={form.user} onChange={set('user')} />
              <TextField label={s.userDomain} value={form.userDomain} onChange={set('userDomain')} />
              <TextField label={s.project} value={form.project} onChange={set('project')} />
              <TextField label={s.projectDomain} value={form.projectDomain} onChange={set('projectDomain')} />
              <TextField label={s.password} secret value={form.password} onChange={set('password')} {...secret} />
            </>
          ) : null}
          {form.authType === 'application-credential' ? (
            <>
              <TextField label={s.appCredId} value={form.appCredId} onChange={set('appCredId')} />
              <TextField label={s.appCredSecret} secret value={form.appCredSecret} onChange={set('appCredSecret')} {...secret} />
            </>
          ) : null}
          <TextField label={s.regionOptional} value={form.region} onChange={set('region')} />
        </>
      ) : (
        <>
          <TextField label={s.endpoint} type="url" value={form.endpoint} onChange={set('endpoint')} />
          <TextField label={s.region} value={form.s3Region} onChange={set('s3Region')} />
          <TextField label={s.accessKey} value={form.accessKey} onChange={set('accessKey')} />
          <TextField label={s.secretKey} secret value={form.secretKey} onChange={set('secretKey')} {...secret} />
          <label className="check">
            <input type="checkbox" checked={form.pathStyle} onChange={(e) => set('pathStyle')(e.target.checked)} />
            {s.pathStyle}
          </label>
        </>
      )}
    </>
  );
}
