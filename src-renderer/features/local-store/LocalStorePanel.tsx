import { useId, useState } from 'react';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { useLocalStatus, useLocalUsers } from '../../queries/use-local-store';
import { useLocalPanel } from '../../stores/local-panel';
import { ErrorState, Loading } from '../common/States';
import { AccountCard } from './AccountCard';
import { useShowLocalAccount } from './AccountPicker';
import { CreateAccountDialog } from './CreateAccountDialog';
import { Field } from './Field';
import { useShownLocalAccount } from './shown-account';
import './local-store.css';

const s = strings.local;

/** How other tools reach the local store: its endpoints, and the keys and command lines of the account shown; new accounts. */
export function LocalStorePanel() {
  const status = useLocalStatus();
  const users = useLocalUsers();
  const shown = useShownLocalAccount();
  const show = useLocalPanel((p) => p.showSecrets);
  const setShow = useLocalPanel((p) => p.setShowSecrets);
  const toggleId = useId();
  const [creating, setCreating] = useState(false);
  const { show: showAccount } = useShowLocalAccount();
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
  const user = users.data.find((u) => u.id === shown?.account);
  return (
    <div className="local-panel">
      <p className="muted">{s.intro}</p>
      <div className="local-actions">
        <div className="local-toggle">
          <input id={toggleId} type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} />
          <label htmlFor={toggleId}>{s.showSecrets}</label>
        </div>
        <button type="button" className="button" onClick={() => setCreating(true)}>
          <Icon name="plus" /> {s.newAccount}
        </button>
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
      {user ? <AccountCard user={user} s3Endpoint={st.s3Endpoint} authUrl={st.nativeAuthUrl} /> : null}
      {creating ? <CreateAccountDialog onClose={() => setCreating(false)} onCreated={showAccount} /> : null}
    </div>
  );
}
