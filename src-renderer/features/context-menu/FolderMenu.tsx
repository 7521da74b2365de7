import type { VersioningStatus } from '../../../src-shared/model/storage';
import { strings } from '../../app/strings';
import { useHead } from '../../queries/use-folder';
import { useCapabilities, useRestoreVersion, useSetPublic } from '../../queries/use-object-ops';
import { useClipboard } from '../../stores/clipboard';
import { useDetailsFocus } from '../../stores/details-focus';
import { useOperations } from '../../stores/operations';
import { plainRows, type Row } from '../browser/rows';
import { takeRows } from '../clipboard/clipboard-actions';
import { canDownload, startDownload } from '../transfers/download';
import { deletedNames, keepsVersions } from '../versions/VersionActions';
import { Menu, type MenuItem, type MenuPosition } from './Menu';

const s = strings.contextMenu;

export interface FolderMenuProps {
  account: string;
  container: string;
  /** The folder shown, and its container's versioning (for a restore to a moment). */
  prefix: string;
  versioning: VersioningStatus | undefined;
  at: MenuPosition;
  /** The selection the menu acts on; empty for the folder's own menu (its empty area). */
  rows: readonly Row[];
  onOpen(row: Row): void;
  paste(): void;
  onClose(): void;
}

/** The folder view's context menu: for the selection (rows), or for the folder itself. */
export function FolderMenu({ account, container, prefix, versioning, at, rows: all, onOpen, paste, onClose }: FolderMenuProps) {
  // Rows of earlier versions and delete markers have menu items of their own.
  const rows = plainRows(all);
  const kept = keepsVersions(versioning);
  const deleted = deletedNames(all);
  const version = all.length === 1 ? all[0]?.version : undefined;
  const restore = useRestoreVersion(account, container, version?.name ?? '');
  const caps = useCapabilities(account).data;
  const canPaste = useClipboard((c) => c.entry !== null);
  const show = useOperations((o) => o.show);
  const focusDetails = useDetailsFocus((d) => d.request);
  const [only] = rows;
  const single = rows.length === 1 ? only : undefined;
  const object = single?.kind === 'object' ? single : undefined;
  // The object's public state comes from its HEAD (the details panel asks for the same one).
  const head = useHead(account, container, object && caps?.publicObjects ? object.key : null);
  const setPublic = useSetPublic(account, container);

  const items: MenuItem[] = [];
  const add = (id: string, label: string, onSelect: () => void, extra: Partial<MenuItem> = {}) => items.push({ id, label, onSelect, ...extra });
  if (all.length === 0) {
    if (canPaste) add('paste', s.paste, paste);
    add('new-folder', s.newFolder, () => show({ kind: 'new-folder' }));
    if (kept) add('restore-time', strings.restoreTime.menu, () => show({ kind: 'restore-time', prefix }), { group: true });
  } else if (rows.length === 0) {
    if (deleted.length > 0) add('undelete', strings.showDeleted.undelete, () => show({ kind: 'undelete', names: deleted }));
    if (version && !version.deleteMarker) add('restore-version', strings.showDeleted.restoreVersion, () => restore.mutate(version.id));
    if (version) add('versions', s.versions, () => focusDetails('versions'), { group: true });
  } else {
    if (single?.kind === 'folder') add('open', s.open, () => onOpen(single));
    if (single?.kind === 'folder' && kept) add('restore-time', strings.restoreTime.menu, () => show({ kind: 'restore-time', prefix: single.key }));
    if (deleted.length > 0) add('undelete', strings.showDeleted.undelete, () => show({ kind: 'undelete', names: deleted }));
    if (canDownload(rows)) add('download', strings.transfers.download, () => startDownload(account, container, rows), { group: single?.kind === 'folder' });
    add('copy', s.copy, () => takeRows('copy', account, container, rows), { group: single?.kind === 'folder' || canDownload(rows) });
    add('cut', s.cut, () => takeRows('cut', account, container, rows));
    if (canPaste) add('paste', s.paste, paste);
    if (single) add('rename', s.rename, () => show({ kind: 'rename', row: single }), { group: true });
    add('delete', s.delete, () => show({ kind: 'delete', rows }), { danger: true, group: !single });
    if (object && caps?.publicObjects && head.data) {
      const on = !head.data.publicRead;
      add('public', on ? s.makePublic : s.makePrivate, () => setPublic.mutate({ name: object.key, on }), { group: true });
    }
    if (object && caps?.shareLinks) add('share', s.shareLink, () => show({ kind: 'share', name: object.key }), { group: !caps.publicObjects });
    if (object && caps?.versions) add('versions', s.versions, () => focusDetails('versions'), { group: true });
    add('properties', s.properties, () => focusDetails('properties'), { group: !(object && caps?.versions) });
  }
  return <Menu label={all.length === 0 ? s.folder : s.rows} at={at} items={items} onClose={onClose} />;
}
