import { useRef, useState } from 'react';

export interface KeyValueRow {
  /** Stable across edits, so React keeps each input (and its caret) while rows come and go. */
  id: number;
  key: string;
  value: string;
}

/** Rows of key and value being edited: the list, and a new row to focus once added. */
export function useKeyValueRows(initial: () => [string, string][]) {
  const nextId = useRef(0);
  const row = (key = '', value = ''): KeyValueRow => ({ id: nextId.current++, key, value });
  const [rows, setRows] = useState<KeyValueRow[]>(() => initial().map(([k, v]) => row(k, v)));
  const [added, setAdded] = useState<number | null>(null);
  return {
    rows,
    added,
    update: (id: number, patch: Partial<Omit<KeyValueRow, 'id'>>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r))),
    remove: (id: number) => setRows((rs) => rs.filter((r) => r.id !== id)),
    add: () => {
      const r = row();
      setAdded(r.id);
      setRows((rs) => [...rs, r]);
    },
  };
}

export interface RowLabels {
  /** Each takes the row's position, counted from 1. */
  key: (n: number) => string;
  value: (n: number) => string;
  remove: (n: number) => string;
  add: string;
}

/** The inputs of each row, its remove button, and the button adding a row. */
export function KeyValueInputs({ editor, labels }: { editor: ReturnType<typeof useKeyValueRows>; labels: RowLabels }) {
  return (
    <>
      {editor.rows.map((r, i) => (
        <div key={r.id} className="meta-row">
          <input aria-label={labels.key(i + 1)} autoFocus={r.id === editor.added} value={r.key} onChange={(e) => editor.update(r.id, { key: e.target.value })} spellCheck={false} autoComplete="off" />
          <input aria-label={labels.value(i + 1)} value={r.value} onChange={(e) => editor.update(r.id, { value: e.target.value })} spellCheck={false} autoComplete="off" />
          <button type="button" className="button" aria-label={labels.remove(i + 1)} title={labels.remove(i + 1)} onClick={() => editor.remove(r.id)}>
            ×
          </button>
        </div>
      ))}
      <button type="button" className="button" onClick={editor.add}>
        {labels.add}
      </button>
    </>
  );
}

/** Pairs shown read-only: a table with the key as each row's header. */
export function KeyValueTable({ label, keyHeader, valueHeader, entries }: { label: string; keyHeader: string; valueHeader: string; entries: readonly (readonly [string, string])[] }) {
  return (
    <table className="table compact meta-table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">{keyHeader}</th>
          <th scope="col">{valueHeader}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row" className="mono wrap">
              {k}
            </th>
            <td className="mono wrap">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
