import type { KeyboardEvent } from 'react';
import type { VersioningStatus } from '../../../src-shared/model/storage';
import { strings } from '../../app/strings';
import { useClipboard } from '../../stores/clipboard';
import { useOperations } from '../../stores/operations';
import { plainRows, type Row } from '../browser/rows';
import { ActionBar, type Action } from '../common/ActionBar';
import { useTransferActions } from '../transfers/TransferActions';
import { useVersionActions } from '../versions/VersionActions';
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
  /** The container's versioning, once known (undefined where the connection keeps no versions). */
  versioning: VersioningStatus | undefined;
  /** The connection's capabilities are known: the versioning dialog can say what it can do. */
  capsKnown: boolean;
}

/** The folder view's operations: the action bar and the dialogs it opens. */
export function FolderActions({ account, container, prefix, rows, selected: all, paste, versioning, capsKnown }: Props) {
  // Rows of earlier versions are not objects: the object commands leave them out.
  const selected = plainRows(all);
  const canPaste = useClipboard((c) => c.entry !== null);
  const open = useOperations((o) => o.open);
  const show = useOperations((o) => o.show);
  const close = useOperations((o) => o.close);
  const transfers = useTransferActions(account, container, prefix, selected);
  const versions = useVersionActions(account, container, prefix, all, versioning, capsKnown);
  const [only] = selected;
  const keys = strings.actionBar.keys;
  const actions: Action[] = [
    transfers.uploadFiles,
    transfers.uploadFolder,
    { id: 'new-folder', label: s.newFolder, icon: 'new-folder', run: () => show({ kind: 'new-folder' }) },
    transfers.download,
    { id: 'rename', label: s.rename, icon: 'rename', keys: { shown: keys.rename, aria: 'F2' }, disabled: selected.length !== 1, run: () => only && show({ kind: 'rename', row: only }) },
    { id: 'paste', label: strings.contextMenu.paste, icon: 'paste', keys: { shown: keys.paste, aria: 'Control+V Meta+V' }, disabled: !canPaste, run: paste },
    { id: 'delete', label: s.delete, icon: 'trash', keys: { shown: keys.delete, aria: 'Delete' }, danger: true, disabled: selected.length === 0, run: () => show({ kind: 'delete', rows: selected }) },
    ...versions.toolbar,
  ];
  return (
    <>
      <ActionBar label={s.toolbar} actions={actions} menuOnly={[...transfers.menuOnly, ...versions.menuOnly]} />
      {transfers.view}
      {versions.view}
      {open?.kind === 'new-folder' ? <NewFolderDialog account={account} container={container} prefix={prefix} rows={rows} onClose={close} /> : null}
      {open?.kind === 'delete' ? <DeleteDialog account={account} container={container} rows={open.rows} onClose={close} /> : null}
      {open?.kind === 'share' ? <ShareLinkDialog account={account} container={container} name={open.name} onClose={close} /> : null}
      {open?.kind === 'rename' ? <RenameDialog account={account} container={container} prefix={prefix} row={open.row} rows={rows} onClose={close} /> : null}
    </>
  );
}

/** Delete deletes and F2 renames what is selected; true when the key was one of them. */
export function operationKey(e: KeyboardEvent, all: readonly Row[]): boolean {
  if (e.target instanceof HTMLInputElement || e.altKey || e.ctrlKey || e.metaKey) return false;
  const { show } = useOperations.getState();
  const selected = plainRows(all);
  const [only] = selected;
  if (e.key === 'Delete' && selected.length > 0) show({ kind: 'delete', rows: selected });
  else if (e.key === 'F2' && only && selected.length === 1) show({ kind: 'rename', row: only });
  else return false;
  e.preventDefault();
  return true;
}
