import { useDialogs } from '../../stores/dialogs';
import { useNavigation } from '../../stores/navigation';
import { SetQuotaDialog } from '../quota/SetQuotaDialog';
import { VersioningDialog } from '../versions/VersioningDialog';
import { CreateContainerDialog } from './CreateContainerDialog';
import { DeleteContainerDialog } from './DeleteContainerDialog';
import { MakePublicDialog } from './MakePublicDialog';

/** The one modal dialog that may be open, for the selected connection. */
export function Dialogs() {
  const open = useDialogs((d) => d.open);
  const close = useDialogs((d) => d.close);
  const account = useNavigation((n) => n.connectionId);
  if (open?.kind === 'create-container') return <CreateContainerDialog account={account} onClose={close} onCreated={close} />;
  if (open?.kind === 'delete-container') return <DeleteContainerDialog account={account} name={open.name} onClose={close} />;
  if (open?.kind === 'make-public') return <MakePublicDialog account={account} name={open.name} alreadyPublic={!!open.alreadyPublic} onClose={close} />;
  if (open?.kind === 'container-quota') return <SetQuotaDialog account={account} container={open.container} onClose={close} />;
  if (open?.kind === 'versioning') return <VersioningDialog account={account} container={open.name} onClose={close} />;
  return null;
}
