import { strings } from '../../app/strings';
import { useSort, type SortColumn } from '../../stores/sort';

const COLUMNS: { column: SortColumn; label: string; className: string }[] = [
  { column: 'name', label: strings.browser.name, className: 'col-name' },
  { column: 'size', label: strings.browser.size, className: 'col-size num' },
  { column: 'type', label: strings.browser.type, className: 'col-type' },
  { column: 'modified', label: strings.browser.modified, className: 'col-modified' },
];

/** Column headers; each sorts by its column (again: the other direction). */
export function GridHeader() {
  const { column, direction, toggle } = useSort();
  return (
    <div role="rowgroup" className="grid-head">
      <div role="row" aria-rowindex={1} className="grid-row">
        {COLUMNS.map((c) => {
          const active = c.column === column;
          return (
            <div key={c.column} role="columnheader" className={c.className} aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
              <button type="button" className="sort-button" title={strings.browser.sortBy(c.label)} onClick={() => toggle(c.column)}>
                {c.label}
                <span className="sort-mark" aria-hidden="true">
                  {active ? (direction === 'asc' ? '▲' : '▼') : ''}
                </span>
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}
