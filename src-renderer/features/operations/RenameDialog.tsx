import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useMove } from '../../queries/use-object-ops';
import { useSelection } from '../../stores/selection';
import type { Row } from '../browser/rows';
import { Dialog, FormActions, FormError } from '../common/Dialog';

const s = strings.operations.renameDialog;

/** Renames an object or a whole folder within the folder on screen (copy, then delete). */
export function RenameDialog({ account, container, prefix, row, rows, onClose }: { account: string; container: string; prefix: string; row: Row; rows: readonly Row[]; onClose: () => void }) {
  const [name, setName] = useState(row.label);
  const [problem, setProblem] = useState<string | null>(null);
  const move = useMove(account, container);
  const clearSelection = useSelection((x) => x.clear);
  const inputId = useId();
  // Once, when the dialog opens: later focus (after an error, say) leaves the selection alone.
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (input.current) selectBaseName(input.current, row.kind === 'object');
  }, [row.kind]);
  const hintId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setProblem(s.required);
    if (trimmed === row.label) return setProblem(s.unchanged);
    if (trimmed.startsWith('/') || trimmed.endsWith('/')) return setProblem(s.invalid);
    const to = row.kind === 'folder' ? `${prefix}${trimmed}/` : `${prefix}${trimmed}`;
    if (rows.some((r) => r.key === to)) return setProblem(s.exists(trimmed));
    setProblem(null);
    move.mutate(
      { from: row.key, to },
      {
        onSuccess: () => {
          clearSelection();
          onClose();
        },
        onError: (err) => setProblem(errorMessage(err)),
      },
    );
  };
  return (
    <Dialog title={s.title(row.label)} onClose={onClose}>
      <form onSubmit={submit} className="form" noValidate>
        <label htmlFor={inputId}>{s.nameLabel}</label>
        <input
          id={inputId}
          value={name}
          onChange={(e) => setName(e.target.value)}
          ref={input}
          aria-describedby={hintId}
          aria-invalid={problem !== null}
          spellCheck={false}
          autoComplete="off"
        />
        <p id={hintId} className="hint">
          {row.kind === 'folder' ? s.folderHint : s.objectHint}
        </p>
        <FormError problem={problem} />
        <FormActions dismissLabel={strings.common.cancel} onDismiss={onClose} submitLabel={s.submit} busyLabel={s.busy} busy={move.isPending} />
      </form>
    </Dialog>
  );
}

/** As file managers do: the name without its extension is selected, so typing keeps ".txt". */
function selectBaseName(input: HTMLInputElement, hasExtension: boolean): void {
  input.focus();
  const dot = input.value.lastIndexOf('.');
  if (hasExtension && dot > 0) input.setSelectionRange(0, dot);
  else input.select();
}
