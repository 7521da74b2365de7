import { useEffect, useRef, type ReactNode } from 'react';
import type { VersioningStatus } from '../../../src-shared/model/storage';
import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useUndelete } from '../../queries/use-versions';
import { useOperations } from '../../stores/operations';
import { useSelection } from '../../stores/selection';
import { useShowDeleted } from '../../stores/show-deleted';
import type { Row } from '../browser/rows';
import type { Action } from '../common/ActionBar';
import { Dialog } from '../common/Dialog';
import { RestoreToTimeDialog } from './RestoreToTimeDialog';
import { VersioningDialog } from './VersioningDialog';

const s = strings.showDeleted;

/** Whether a container's listing can show deleted objects: it keeps (or kept) versions. */
export const keepsVersions = (status: VersioningStatus | undefined) => status === 'enabled' || status === 'suspended';

/** The names of deleted objects among the rows (their first rows, which Undelete acts on). */
export function deletedNames(rows: readonly Row[]): string[] {
  return [...new Set(rows.flatMap((r) => (r.version?.deleted ? [r.version.name] : [])))];
}

/**
 * The folder toolbar's versions actions: the "Show deleted objects" switch and Undelete where
 * the container keeps versions; in its menu, the container's versioning and a restore of the
 * folder to a moment. `view` holds the dialogs they open.
 */
export function useVersionActions(account: string, container: string, prefix: string, selected: readonly Row[], status: VersioningStatus | undefined, canVersion: boolean) {
  const shown = useShowDeleted((x) => x.on);
  const toggle = useShowDeleted((x) => x.toggle);
  const open = useOperations((o) => o.open);
  const show = useOperations((o) => o.show);
  const close = useOperations((o) => o.close);
  const kept = keepsVersions(status);
  const deleted = deletedNames(selected);
  const toolbar: Action[] = kept
    ? [
        { id: 'show-deleted', label: s.show, icon: 'history', pressed: shown, run: toggle },
        ...(shown ? [{ id: 'undelete', label: s.undelete, icon: 'undo' as const, disabled: deleted.length === 0, run: () => show({ kind: 'undelete', names: deleted }) }] : []),
      ]
    : [];
  const menuOnly: Action[] = canVersion
    ? [
        { id: 'versioning', label: strings.versioning.menu, icon: 'history', run: () => show({ kind: 'versioning' }) },
        ...(kept ? [{ id: 'restore-time', label: strings.restoreTime.menu, icon: 'history' as const, run: () => show({ kind: 'restore-time', prefix }) }] : []),
      ]
    : [];
  let view: ReactNode = null;
  if (open?.kind === 'versioning') view = <VersioningDialog account={account} container={container} onClose={close} />;
  else if (open?.kind === 'restore-time') view = <RestoreToTimeDialog account={account} container={container} prefix={open.prefix} onClose={close} />;
  else if (open?.kind === 'undelete') view = <UndeleteRun key={open.names.join('\n')} account={account} container={container} names={open.names} onClose={close} />;
  return { toolbar, menuOnly, view };
}

/** Brings the objects back as soon as it is shown; says nothing more unless some could not be. */
function UndeleteRun({ account, container, names, onClose }: { account: string; container: string; names: string[]; onClose: () => void }) {
  const undelete = useUndelete(account, container);
  const clear = useSelection((x) => x.clear);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    undelete.mutate(names, {
      onSuccess: (r) => {
        clear();
        if (r.errors.length === 0) onClose();
      },
    });
  });
  const errors = undelete.data?.errors ?? [];
  if (undelete.isPending) {
    return (
      <p className="note" role="status">
        {s.undeleting}
      </p>
    );
  }
  if (errors.length === 0 && !undelete.isError) return null;
  return (
    <Dialog title={s.undelete} onClose={onClose}>
      <div className="form-error" role="alert">
        <p>{s.undeleteFailed(formatCount(undelete.isError ? names.length : errors.length))}</p>
        <ul>
          {undelete.isError ? <li>{undelete.error.message}</li> : errors.map((e) => <li key={e.name}>{s.failure(e.name, e.message)}</li>)}
        </ul>
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          {strings.common.close}
        </button>
      </div>
    </Dialog>
  );
}
