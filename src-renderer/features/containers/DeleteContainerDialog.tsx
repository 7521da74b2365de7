import { errorCode, errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useDeleteContainer } from '../../queries/use-containers';
import { Dialog, FormError } from '../common/Dialog';

const s = strings.containers.deleteDialog;

/** Asks first; a non-empty container's refusal is said plainly, in the dialog. */
export function DeleteContainerDialog({ account, name, onClose }: { account: string; name: string; onClose: () => void }) {
  const remove = useDeleteContainer(account);
  const problem = remove.error ? (errorCode(remove.error) === 'ContainerNotEmpty' ? strings.errors.containerNotEmpty(name) : errorMessage(remove.error)) : null;
  return (
    <Dialog title={s.title} onClose={onClose}>
      <p>{s.body(name)}</p>
      <FormError problem={problem} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          {problem ? strings.common.close : strings.common.cancel}
        </button>
        <button type="button" className="button danger" disabled={remove.isPending} onClick={() => remove.mutate(name, { onSuccess: onClose })}>
          {remove.isPending ? s.busy : s.submit}
        </button>
      </div>
    </Dialog>
  );
}
