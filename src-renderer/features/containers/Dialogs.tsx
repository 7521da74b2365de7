import { useDialogs } from '../../stores/dialogs';
import { useNavigation } from '../../stores/navigation';
import { CreateContainerDialog } from './CreateContainerDialog';
import { DeleteContainerDialog } from './DeleteContainerDialog';

/** The one modal dialog that may be open, for the selected connection. */
export function Dialogs() {
  const open = useDialogs((d) => d.open);
  const close = useDialogs((d) => d.close);
  const account = useNavigation((n) => n.connectionId);
  if (open?.kind === 'create-container') return <CreateContainerDialog account={account} onClose={close} onCreated={close} />;
  if (open?.kind === 'delete-container') return <DeleteContainerDialog account={account} name={open.name} onClose={close} />;
  return null;
}
