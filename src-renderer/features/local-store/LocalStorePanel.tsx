import { useId } from 'react';
import type { LocalUser } from '../../../src-shared/contract/local-store';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useLocalStatus, useLocalUsers } from '../../queries/use-local-store';
import { useLocalPanel } from '../../stores/local-panel';
import { ErrorState, Loading } from '../common/States';
import { awsCommand, rcloneCommand, swiftCommand } from './commands';
import { CommandLine, Field } from './Field';

const s = strings.local;

/** How other tools reach the local store: its endpoints, each user's keys, and command lines. */
export function LocalStorePanel() {
  const status = useLocalStatus();
  const users = useLocalUsers();
  const show = useLocalPanel((p) => p.showSecrets);
  const setShow = useLocalPanel((p) => p.setShowSecrets);
  const toggleId = useId();
  const failed = status.error ?? users.error;
  if (failed) {
    return (
      <ErrorState
        error={failed}
        onRetry={() => {
          void status.refetch();
          void users.refetch();
        }}
      />
    );
  }
  if (!status.data || !users.data) return <Loading label={s.loading} />;
  const st = status.data;
  return (
    <div className="local-panel">
      <p className="muted">{s.intro}</p>
      <div className="local-toggle">
        <input id={toggleId} type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} />
        <label htmlFor={toggleId}>{s.showSecrets}</label>
      </div>
      <section aria-labelledby={`${toggleId}-endpoints`} className="card">
        <h2 id={`${toggleId}-endpoints`}>{s.endpoints}</h2>
        <dl className="fields">
          <Field label={s.s3Endpoint} value={st.s3Endpoint} />
          <Field label={s.nativeAuthUrl} value={st.nativeAuthUrl} />
          <Field label={s.dataDir} value={st.dataDir} />
        </dl>
      </section>
      {users.data.length === 0 ? <p className="muted">{s.noUsers}</p> : null}
      {users.data.map((u) => (
        <UserCard key={u.id} user={u} s3Endpoint={st.s3Endpoint} authUrl={st.nativeAuthUrl} />
      ))}
    </div>
  );
}

function UserCard({ user, s3Endpoint, authUrl }: { user: LocalUser; s3Endpoint: string; authUrl: string }) {
  const headingId = useId();
  const key = user.keys[0];
  const swift = user.swiftKeys[0];
  return (
    <section aria-labelledby={headingId} className="card">
      <h2 id={headingId}>{s.user(user.displayName || user.id)}</h2>
      <p className="muted">
        {user.id} · {s.usage(formatCount(user.usage.objects), formatBytes(user.usage.bytes))}
      </p>
      <dl className="fields">
        <Field label={s.storageUrl} value={user.storageUrl} />
        {key ? <Field label={s.accessKey} value={key.accessKey} /> : null}
        {key ? <Field label={s.secretKey} value={key.secretKey} secret /> : null}
        {swift ? <Field label={s.swiftUser} value={swift.user} /> : null}
        {swift ? <Field label={s.swiftKey} value={swift.secretKey} secret /> : null}
      </dl>
      <h3 className="details-subtitle">{s.commands}</h3>
      {key ? (
        <>
          <CommandLine
            label={s.awsCommand}
            command={awsCommand({ endpoint: s3Endpoint, accessKey: key.accessKey, secretKey: key.secretKey })}
            secrets={[key.secretKey]}
          />
          <CommandLine
            label={s.rcloneCommand}
            command={rcloneCommand({ endpoint: s3Endpoint, accessKey: key.accessKey, secretKey: key.secretKey })}
            secrets={[key.secretKey]}
          />
        </>
      ) : null}
      {swift ? (
        <CommandLine
          label={s.swiftCommand}
          command={swiftCommand({ authUrl, user: swift.user, key: swift.secretKey })}
          secrets={[swift.secretKey]}
        />
      ) : null}
    </section>
  );
}
