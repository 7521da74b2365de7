import { useState } from 'react';
import type { ConnectionInfo } from '../../../src-shared/model/connections';
import { LOCAL_CONNECTION_ID } from '../../../src-shared/model/local-connection';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useRemoveConnection } from '../../queries/use-accounts';
import { useNavigation } from '../../stores/navigation';
import { Dialog, FormError } from '../common/Dialog';
import { useShownLocalAccount } from '../local-store/shown-account';

const s = strings.connections;

export function RemoveConnectionDialog({ connection, onClose }: { connection: ConnectionInfo; onClose: () => void }) {
  const remove = useRemoveConnection();
  const [problem, setProblem] = useState<string | null>(null);
  const local = useShownLocalAccount();
  const confirm = () =>
    remove.mutate(connection.id, {
      onSuccess: () => {
        const nav = useNavigation.getState();
        if (nav.connectionId === connection.id) nav.selectConnection(local?.id ?? LOCAL_CONNECTION_ID);
        onClose();
      },
      onError: (err) => setProblem(errorMessage(err)),
    });
  return (
    <Dialog title={s.removeTitle} onClose={onClose}>
      <p>{s.removeBody(connection.name)}</p>
      <FormError problem={problem} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {strings.common.cancel}
        </button>
        <button type="button" className="button danger" onClick={confirm} disabled={remove.isPending}>
          {remove.isPending ? s.removing : s.removeSubmit}
        </button>
      </div>
    </Dialog>
  );
}
