import { useId } from 'react';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useChooseLocalAccount, useLocalUsers } from '../../queries/use-local-store';
import { showLocalConnection, useShownLocalAccount } from './shown-account';
import './local-store.css';

const s = strings.local;

/** Switches the app to another local account and shows it. */
export function useShowLocalAccount() {
  const choose = useChooseLocalAccount();
  return {
    show: (account: string) => choose.mutate(account, { onSuccess: ({ connectionId }) => showLocalConnection(connectionId) }),
    pending: choose.isPending,
    error: choose.error,
  };
}

/** The local store holds several accounts: which one the app shows (remembered by the store). */
export function AccountPicker() {
  const users = useLocalUsers();
  const shown = useShownLocalAccount();
  const { show, pending, error } = useShowLocalAccount();
  const selectId = useId();
  const current = users.data?.find((u) => u.id === shown?.account);
  return (
    <div className="account-picker">
      <label htmlFor={selectId}>{s.account}</label>
      <select
        id={selectId}
        value={shown?.account ?? ''}
        // The sidebar is narrow: the whole name on hover.
        title={current ? s.accountOption(current.displayName, current.id) : undefined}
        disabled={!users.data || pending}
        onChange={(e) => show(e.target.value)}
      >
        {(users.data ?? []).map((u) => (
          <option key={u.id} value={u.id}>
            {s.accountOption(u.displayName, u.id)}
          </option>
        ))}
      </select>
      {error ? (
        <p className="form-error" role="alert">
          {errorMessage(error)}
        </p>
      ) : null}
    </div>
  );
}
