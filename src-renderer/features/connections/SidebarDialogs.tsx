import { SetQuotaDialog } from '../quota/SetQuotaDialog';
import { ConnectionDialog } from './ConnectionDialog';
import { RemoveConnectionDialog } from './RemoveConnectionDialog';
import { useConnectionDialogs } from './store';

/** The sidebar's dialogs: add/edit/remove a connection, a local account's quota. */
export function SidebarDialogs() {
  const open = useConnectionDialogs((d) => d.open);
  const show = useConnectionDialogs((d) => d.show);
  const close = useConnectionDialogs((d) => d.close);
  if (open?.kind === 'add') return <ConnectionDialog connection={null} onClose={close} onRemove={close} />;
  if (open?.kind === 'edit') return <ConnectionDialog key={open.connection.id} connection={open.connection} onClose={close} onRemove={() => show({ kind: 'remove', connection: open.connection })} />;
  if (open?.kind === 'remove') return <RemoveConnectionDialog connection={open.connection} onClose={close} />;
  if (open?.kind === 'quota') return <SetQuotaDialog key={open.account} account={open.account} onClose={close} />;
  return null;
}
