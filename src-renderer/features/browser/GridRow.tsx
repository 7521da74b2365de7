import { memo, type MouseEvent } from 'react';
import { formatBytes, formatDate } from '../../app/format';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { useRowTransfer } from '../transfers/drag-out';
import type { Row, RowVersion } from './rows';

/** What the type column says of a row of an earlier version or a delete marker. */
function versionType(v: RowVersion): string {
  const s = strings.showDeleted;
  if (v.deleted) return s.deleted;
  return v.deleteMarker ? s.marker : s.earlier;
}

export interface GridRowProps {
  row: Row;
  id: string;
  index: number;
  top: number;
  selected: boolean;
  /** Cut to the clipboard, waiting for a paste. */
  cut: boolean;
  focused: boolean;
  onClick(e: MouseEvent, row: Row): void;
  onOpen(row: Row): void;
  onContextMenu(e: MouseEvent, row: Row): void;
}

/**
 * Memoized: the grid re-renders on every scroll event, and rows that stay in view keep the same
 * props, so only the rows coming into view render.
 */
export const GridRow = memo(function GridRow({ row, id, index, top, selected, cut, focused, onClick, onOpen, onContextMenu }: GridRowProps) {
  const folder = row.kind === 'folder';
  const version = row.version;
  const transfer = useRowTransfer(row);
  return (
    <div
      {...transfer}
      role="row"
      id={id}
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`grid-row grid-item${selected ? ' selected' : ''}${focused ? ' focused' : ''}${cut ? ' cut' : ''}${version ? (version.deleted ? ' version deleted' : ' version') : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={(e) => onClick(e, row)}
      onDoubleClick={() => onOpen(row)}
      onContextMenu={(e) => onContextMenu(e, row)}
    >
      <div role="gridcell" className="col-name">
        <Icon name={folder ? 'folder' : version ? 'history' : 'file'} />
        <span className="name-text">{row.label}</span>
      </div>
      <div role="gridcell" className="col-size num">
        {folder || version?.deleteMarker ? '' : formatBytes(row.size)}
      </div>
      <div role="gridcell" className="col-type">
        {folder ? strings.browser.folderType : version ? versionType(version) : (row.type ?? strings.common.unknown)}
      </div>
      <div role="gridcell" className="col-modified">
        {folder ? '' : formatDate(row.modified)}
      </div>
    </div>
  );
});
