import { useCallback, useMemo } from 'react';
import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useFolder } from '../../queries/use-folder';
import { useNavigation } from '../../stores/navigation';
import { useSelection } from '../../stores/selection';
import { isServerOrder, useSort } from '../../stores/sort';
import { Empty, ErrorState, Loading } from '../common/States';
import { DetailsPanel } from '../details/DetailsPanel';
import { FolderActions, operationKey } from '../operations/FolderActions';
import { Breadcrumbs } from './Breadcrumbs';
import { FilterBox } from './FilterBox';
import { ObjectGrid } from './ObjectGrid';
import { sortRows, toRows, type Row } from './rows';

const s = strings.browser;

/** One folder of a container: breadcrumbs, prefix filter, the virtualized grid, the details panel. */
export function FolderView({ account, container }: { account: string; container: string }) {
  const prefix = useNavigation((n) => n.prefix);
  const filter = useNavigation((n) => n.filter);
  const openFolder = useNavigation((n) => n.openFolder);
  const goUp = useNavigation((n) => n.goUp);
  const sort = useSort();
  const listing = prefix + filter;
  const folder = useFolder(account, container, listing);
  const rows = useMemo(() => sortRows(toRows(folder.entries, prefix), sort.column, sort.direction), [folder.entries, prefix, sort.column, sort.direction]);
  const selected = useSelection((x) => x.selected);
  const selectedRows = useMemo(() => rows.filter((r) => selected.has(r.key)), [rows, selected]);

  const onOpen = useCallback((row: Row) => {
    if (row.kind === 'folder') openFolder(row.key);
  }, [openFolder]);
  const { fetchNextPage } = folder;
  const more = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  let overlay = null;
  if (folder.isPending) overlay = <Loading label={s.loading} />;
  else if (folder.isError) overlay = <ErrorState error={folder.error} onRetry={() => void folder.refetch()} />;
  else if (rows.length === 0 && !folder.hasNextPage) {
    overlay = <Empty title={filter ? s.noMatch(filter) : prefix ? s.emptyFolder : s.emptyContainer} />;
  }

  return (
    <section className="folder" aria-label={`${container}/${prefix}`} onKeyDown={(e) => {
        if (operationKey(e, selectedRows)) return;
        // Backspace goes up from anywhere in the view but a text field (the grid handles its own).
        if (e.key !== 'Backspace' || e.defaultPrevented || e.target instanceof HTMLInputElement) return;
        e.preventDefault();
        goUp();
      }}>
      <div className="toolbar">
        <Breadcrumbs container={container} prefix={prefix} />
        <span className="spacer" />
        <FolderActions account={account} container={container} prefix={prefix} rows={rows} selected={selectedRows} />
        <FilterBox key={`${container}/${prefix}`} />
      </div>
      {!isServerOrder(sort) && folder.hasNextPage ? (
        <p className="note" role="note">
          {s.sortedWithinLoaded(formatCount(rows.length))}
        </p>
      ) : null}
      <div className="folder-body">
        <ObjectGrid
          rows={rows}
          label={s.gridLabel(`${container}/${prefix}`)}
          listingKey={`${account}\n${container}\n${listing}`}
          hasNextPage={folder.hasNextPage}
          isFetchingNextPage={folder.isFetchingNextPage}
          fetchNextPage={more}
          onOpen={onOpen}
          onUp={goUp}
          overlay={overlay}
        />
        <DetailsPanel account={account} container={container} rows={selectedRows} />
      </div>
    </section>
  );
}
