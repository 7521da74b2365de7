import { useState } from 'react';
import type { DeleteManyResult } from '../../../src-shared/model/storage';
import { errorMessage } from '../../app/errors';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useDeleteEntries, useFolderCount } from '../../queries/use-object-ops';
import { useVersioning } from '../../queries/use-versions';
import { newOperationId, useProgress } from '../../stores/progress';
import { useSelection } from '../../stores/selection';
import type { Row } from '../browser/rows';
import { Dialog, FormError } from '../common/Dialog';
import { OperationProgressBar } from './OperationProgressBar';

const s = strings.operations.deleteDialog;
/** Names listed in the confirmation; the rest are counted. */
const SHOWN = 10;

/** Confirms, then deletes the selected objects and whole folders in one call. */
export function DeleteDialog({ account, container, rows, onClose }: { account: string; container: string; rows: readonly Row[]; onClose: () => void }) {
  const del = useDeleteEntries(account, container);
  const clearSelection = useSelection((x) => x.clear);
  const [failures, setFailures] = useState<DeleteManyResult['errors'] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [operationId] = useState(newOperationId);
  const forget = useProgress((p) => p.forget);
  const prefixes = rows.filter((r) => r.kind === 'folder').map((r) => r.key);
  const folderCount = useFolderCount(account, container, prefixes);
  const undo = useUndoText(account, container, rows.length === 1);
  const confirm = () => {
    setProblem(null);
    const names = rows.filter((r) => r.kind === 'object').map((r) => r.key);
    del.mutate(
      { names, prefixes, operationId },
      {
        onSettled: () => forget(operationId),
        onSuccess: (result) => {
          clearSelection();
          if (result.errors.length === 0) onClose();
          else setFailures(result.errors);
        },
        onError: (err) => setProblem(errorMessage(err)),
      },
    );
  };
  return (
    <Dialog title={s.title} onClose={onClose}>
      <p>
        {rows.length === 1 ? s.introOne : s.intro(formatCount(rows.length))} {undo}
      </p>
      <ul className="delete-list" aria-label={s.listLabel}>
        {rows.slice(0, SHOWN).map((r) => (
          <li key={r.key} className="mono">
            {r.kind === 'folder' ? s.folder(r.label) : s.object(r.label)}
          </li>
        ))}
        {rows.length > SHOWN ? <li>{s.more(formatCount(rows.length - SHOWN))}</li> : null}
      </ul>
      {prefixes.length > 0 ? <FolderCountLine query={folderCount} /> : null}
      {failures ? (
        <div className="form-error" role="alert">
          <p>{s.failed(formatCount(failures.length))}</p>
          <ul>
            {failures.map((f) => (
              <li key={f.name}>{s.failure(f.name, f.message)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {del.isPending ? <OperationProgressBar id={operationId} label={strings.clipboard.deleting} /> : null}
      <FormError problem={problem} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          {failures ? strings.common.close : strings.common.cancel}
        </button>
        {failures ? null : (
          <button type="button" className="button danger" disabled={del.isPending} onClick={confirm}>
            {del.isPending ? s.busy : s.submit}
          </button>
        )}
      </div>
    </Dialog>
  );
}

/**
 * Whether a delete can be undone here: in a container that keeps versions the objects are only
 * hidden behind delete markers; suspended, what was written since is gone; otherwise all is.
 */
function useUndoText(account: string, container: string, one: boolean): string {
  const { caps, status, query } = useVersioning(account, container);
  const u = strings.undo;
  if (caps === undefined || (caps.versions && status === undefined && !query.isError)) return u.checking;
  if (status === 'enabled') return one ? u.undoableOne : u.undoable;
  return status === 'suspended' ? u.suspended : u.never;
}

/** What deleting the folders takes with them, counted before the user decides. */
function FolderCountLine({ query }: { query: ReturnType<typeof useFolderCount> }) {
  if (query.isPending) return <p className="muted">{s.counting}</p>;
  if (query.isError) return <p className="muted">{s.countFailed(errorMessage(query.error))}</p>;
  const { objects, bytes, complete } = query.data;
  return <p>{complete ? s.folderObjects(formatCount(objects), formatBytes(bytes)) : s.folderObjectsAtLeast(formatCount(objects))}</p>;
}
