import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { loadToEnd, useFolder } from '../../queries/use-folder';
import { useClipboard } from '../../stores/clipboard';
import { useNavigation } from '../../stores/navigation';
import { useVersioning } from '../../queries/use-versions';
import { useQuickLook } from '../../stores/quick-look';
import { useSelection } from '../../stores/selection';
import { useShowDeleted } from '../../stores/show-deleted';
import { isServerOrder, useSort } from '../../stores/sort';
import { clipboardKey } from '../clipboard/clipboard-actions';
import { usePaste } from '../clipboard/use-paste';
import { containerShown } from '../common/focus';
import { Empty, ErrorState, Loading } from '../common/States';
import { FolderMenu } from '../context-menu/FolderMenu';
import type { MenuPosition } from '../context-menu/Menu';
import { DetailsPanel } from '../details/DetailsPanel';
import { QuickLook } from '../preview/QuickLook';
import { FolderActions, operationKey } from '../operations/FolderActions';
import { useDropBanner } from '../transfers/use-folder-drop';
import { keepsVersions } from '../versions/VersionActions';
import { Breadcrumbs } from './Breadcrumbs';
import { FilterBox } from './FilterBox';
import { ObjectGrid } from './ObjectGrid';
import { nextRowList, type LoadedRows } from './row-list';
import { plainRows, type Row } from './rows';
import './folder.css';

const s = strings.browser;

/** One folder of a container: breadcrumbs, prefix filter, the virtualized grid, the details panel. */
export function FolderView({ account, container }: { account: string; container: string }) {
  const prefix = useNavigation((n) => n.prefix);
  const filter = useNavigation((n) => n.filter);
  const openFolder = useNavigation((n) => n.openFolder);
  const goUp = useNavigation((n) => n.goUp);
  const sort = useSort();
  const listing = prefix + filter;
  const versioning = useVersioning(account, container);
  // Deleted objects and earlier versions, where the container keeps them and the user asked.
  const withVersions = useShowDeleted((x) => x.on) && keepsVersions(versioning.status);
  const folder = useFolder(account, container, prefix, filter, withVersions);
  // Each new page extends what was loaded rather than rebuilding it (see nextRowList).
  const loaded = useRef<LoadedRows | null>(null);
  const pages = folder.data?.pages;
  const list = useMemo(() => {
    loaded.current = nextRowList(loaded.current, pages?.map((p) => p.rows) ?? [], { column: sort.column, direction: sort.direction });
    return loaded.current.list;
  }, [pages, sort.column, sort.direction]);
  const rows = list.rows;
  const selected = useSelection((x) => x.selected);
  const selectedRows = useMemo(() => list.pick(selected), [list, selected]);
  const dropBanner = useDropBanner(account, container);
  useEffect(() => containerShown(account, container), [account, container]);

  const onOpen = useCallback((row: Row) => {
    if (row.kind === 'folder') openFolder(row.key);
  }, [openFolder]);
  const quickLook = useQuickLook();
  // The larger preview belongs to the folder on screen: another folder (or none) closes it.
  const hideQuickLook = quickLook.hide;
  useEffect(() => hideQuickLook, [account, container, listing, hideQuickLook]);
  const { paste, view: pasteView } = usePaste(account, container, prefix);
  const clip = useClipboard((c) => c.entry);
  // Rows cut and waiting for a paste are shown dimmed, as file managers do.
  const cutKeys = useMemo(
    () => (clip?.mode === 'cut' && clip.account === account && clip.container === container ? new Set([...clip.names, ...clip.prefixes]) : undefined),
    [clip, account, container],
  );
  // The open context menu: for the selection, or (rows: false) for the folder itself.
  const [menu, setMenu] = useState<{ at: MenuPosition; rows: boolean } | null>(null);
  const onMenu = useCallback((at: MenuPosition, row: Row | null) => setMenu({ at, rows: row !== null }), []);
  const { fetchNextPage } = folder;
  // Joining a request on its way rather than cancelling it: End's loading and the prefetch share it.
  const more = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);
  const toEnd = useCallback((stopped: () => boolean) => loadToEnd(() => fetchNextPage({ cancelRefetch: false }), stopped), [fetchNextPage]);

  let overlay = null;
  if (folder.isPending) overlay = <Loading label={s.loading} />;
  else if (folder.isError) overlay = <ErrorState error={folder.error} onRetry={() => void folder.refetch()} />;
  else if (rows.length === 0 && !folder.hasNextPage) {
    overlay = <Empty title={filter ? s.noMatch(filter) : prefix ? s.emptyFolder : s.emptyContainer} />;
  }

  return (
    <section className="folder" aria-label={`${container}/${prefix}`} onKeyDown={(e) => {
        if (operationKey(e, selectedRows)) return;
        if (clipboardKey(e, { account, container, selected: plainRows(selectedRows) }, paste)) return;
        // Backspace goes up from anywhere in the view but a text field (the grid handles its own).
        if (e.key !== 'Backspace' || e.defaultPrevented || e.target instanceof HTMLInputElement) return;
        e.preventDefault();
        goUp();
      }}>
      <div className="toolbar folder-toolbar">
        <Breadcrumbs container={container} prefix={prefix} />
        <FilterBox key={`${container}/${prefix}`} />
        <FolderActions
          account={account}
          container={container}
          prefix={prefix}
          rows={rows}
          selected={selectedRows}
          paste={paste}
          versioning={versioning.status}
          capsKnown={versioning.caps !== undefined}
        />
      </div>
      {dropBanner}
      {pasteView}
      {!isServerOrder(sort) && folder.hasNextPage ? (
        <p className="note" role="note">
          {s.sortedWithinLoaded(formatCount(rows.length))}
        </p>
      ) : null}
      <div className="folder-body">
        <ObjectGrid
          list={list}
          label={s.gridLabel(`${container}/${prefix}`)}
          listingKey={`${account}\n${container}\n${listing}`}
          hasNextPage={folder.hasNextPage}
          isFetchingNextPage={folder.isFetchingNextPage}
          fetchNextPage={more}
          loadToEnd={toEnd}
          onOpen={onOpen}
          onPreview={quickLook.show}
          onUp={goUp}
          onMenu={onMenu}
          cutKeys={cutKeys}
          overlay={overlay}
        />
        <DetailsPanel account={account} container={container} rows={selectedRows} />
      </div>
      {quickLook.open ? <QuickLook account={account} container={container} list={list} /> : null}
      {menu ? (
        <FolderMenu
          account={account}
          container={container}
          prefix={prefix}
          versioning={versioning.status}
          at={menu.at}
          rows={menu.rows ? selectedRows : []}
          onOpen={onOpen}
          paste={paste}
          onClose={() => setMenu(null)}
        />
      ) : null}
    </section>
  );
}
