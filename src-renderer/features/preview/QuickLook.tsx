import type { KeyboardEvent } from 'react';
import { formatBytes } from '../../app/format';
import { strings } from '../../app/strings';
import { useHead } from '../../queries/use-folder';
import { useQuickLook } from '../../stores/quick-look';
import { useSelection } from '../../stores/selection';
import type { RowList } from '../browser/row-list';
import { clickSelect } from '../browser/selection-logic';
import { Dialog } from '../common/Dialog';
import { ErrorState, Loading } from '../common/States';
import { Preview } from './Preview';

const s = strings.preview;

/** The object before or after `key` in the folder's order, folders skipped; null at either end. */
function neighbour(list: RowList, key: string, step: 1 | -1): string | null {
  const rows = list.rows;
  for (let i = list.indexOf(key) + step; i >= 0 && i < rows.length; i += step) {
    if (rows[i]!.kind === 'object') return rows[i]!.key;
  }
  return null;
}

/** Keys that are a control's own: a player's seek and volume, a text box's cursor. */
const ownsKeys = (target: EventTarget) => target instanceof HTMLMediaElement || target instanceof HTMLInputElement;

/**
 * The larger preview, Quick Look style: Space opens it on the focused object, the arrow keys
 * move to the previous and next object of the folder (the selection follows, so closing leaves
 * the grid there), Space or Escape closes it.
 */
export function QuickLook({ account, container, list }: { account: string; container: string; list: RowList }) {
  const hide = useQuickLook((q) => q.hide);
  const focus = useSelection((x) => x.focus);
  const name = focus !== null && !focus.endsWith('/') ? focus : null;
  const head = useHead(account, container, name);
  if (name === null) return null;
  const leaf = name.slice(name.lastIndexOf('/') + 1);

  const onKey = (e: KeyboardEvent) => {
    if (ownsKeys(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === ' ' && !(e.target instanceof HTMLButtonElement)) {
      e.preventDefault();
      hide();
      return;
    }
    const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    const next = neighbour(list, name, step);
    if (next !== null) useSelection.getState().apply(clickSelect(list, useSelection.getState(), next, { toggle: false, range: false }));
  };

  return (
    <Dialog title={s.quickLookTitle(leaf)} onClose={hide} className="quick-look" onKey={onKey}>
      <p className="muted quick-look-hint">
        {head.data ? `${formatBytes(head.data.size)} · ${head.data.contentType} · ` : null}
        {s.quickLookHint}
      </p>
      <div className="quick-look-body">
        {head.isPending ? <Loading label={s.loading} /> : head.isError ? <ErrorState error={head.error} onRetry={() => void head.refetch()} /> : <Preview account={account} container={container} details={head.data} large />}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={hide} data-autofocus>
          {strings.common.close}
        </button>
      </div>
    </Dialog>
  );
}
