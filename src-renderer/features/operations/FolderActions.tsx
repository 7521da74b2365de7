import type { KeyboardEvent } from 'react';
import { strings } from '../../app/strings';
import { useClipboard } from '../../stores/clipboard';
import { useOperations } from '../../stores/operations';
import type { Row } from '../browser/rows';
import { TransferActions } from '../transfers/TransferActions';
import { DeleteDialog } from './DeleteDialog';
import { NewFolderDialog } from './NewFolderDialog';
import { RenameDialog } from './RenameDialog';
import { ShareLinkDialog } from './ShareLinkDialog';

const s = strings.operations;

interface Props {
  account: string;
  container: string;
  prefix: string;
  /** What the folder shows (to refuse a name that is taken) and what is selected. */
  rows: readonly Row[];
  selected: readonly Row[];
  /** Pastes the app clipboard here. */
  paste(): void;
}

/** The folder view's operations: toolbar buttons and the dialogs they open. */
export function FolderActions({ account, container, prefix, rows, selected, paste }: Props) {
  const canPaste = useClipboard((c) => c.entry !== null);
  const open = useOperations((o) => o.open);
  const show = useOperations((o) => o.show);
  const close = useOperations((o) => o.close);
  const [only] = selected;
  return (
    <div role="toolbar" aria-label={s.toolbar} className="folder-actions">
      <TransferActions account={account} container={container} prefix={prefix} selected={selected} />
      <button type="button" className="button" onClick={() => show({ kind: 'new-folder' })}>
        {s.newFolder}
      </button>
      <button type="button" className="button" disabled={selected.length !== 1} onClick={() => only && show({ kind: 'rename', row: only })}>
        {s.rename}
      </button>
      <button type="button" className="button" disabled={!canPaste} onClick={paste}>
        {strings.contextMenu.paste}
      </button>
      <button type="button" className="button danger" disabled={selected.length === 0} onClick={() => show({ kind: 'delete', rows: selected })}>
        {s.delete}
      </button>
      {open?.kind === 'new-folder' ? <NewFolderDialog account={account} container={container} prefix={prefix} rows={rows} onClose={close} /> : null}
      {open?.kind === 'delete' ? <DeleteDialog account={account} container={container} rows={open.rows} onClose={close} /> : null}
      {open?.kind === 'share' ? <ShareLinkDialog account={account} container={container} name={open.name} onClose={close} /> : null}
      {open?.kind === 'rename' ? <RenameDialog account={account} container={container} prefix={prefix} row={open.row} rows={rows} onClose={close} /> : null}
    </div>
  );
}

/** Delete deletes and F2 renames what is selected; true when the key was one of them. */
export function operationKey(e: KeyboardEvent, selected: readonly Row[]): boolean {
  if (e.target instanceof HTMLInputElement || e.altKey || e.ctrlKey || e.metaKey) return false;
  const { show } = useOperations.getState();
  const [only] = selected;
  if (e.key === 'Delete' && selected.length > 0) show({ kind: 'delete', rows: selected });
  else if (e.key === 'F2' && only && selected.length === 1) show({ kind: 'rename', row: only });
  else return false;
  e.preventDefault();
  return true;
}
