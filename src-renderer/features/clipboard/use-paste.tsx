import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { PasteResult } from '../../../src-shared/contract/browse';
import { api } from '../../api/client';
import { errorMessage } from '../../app/errors';
import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { queryKeys } from '../../queries/keys';
import { useClipboard, type ClipboardEntry } from '../../stores/clipboard';
import { newOperationId, useProgress } from '../../stores/progress';
import { useSelection } from '../../stores/selection';
import { OperationProgressBar } from '../operations/OperationProgressBar';
import { PasteConflictDialog, type ConflictChoice } from './PasteConflictDialog';
import './clipboard.css';

const s = strings.clipboard;

type Outcome = { kind: 'done'; message: string; failures: Extract<PasteResult, { status: 'done' }>['errors'] } | { kind: 'error'; message: string };

/**
 * Pasting the app clipboard into the folder on screen: the call (with its progress), the
 * question when names are taken, and what came of it. Returns the action and what to render.
 */
export function usePaste(account: string, container: string, prefix: string): { paste: () => void; view: ReactNode } {
  const qc = useQueryClient();
  const forget = useProgress((p) => p.forget);
  const [operationId, setOperationId] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<{ names: string[]; entry: ClipboardEntry } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  useEffect(() => setOutcome(null), [account, container, prefix]);

  const mutation = useMutation({
    mutationFn: (v: { entry: ClipboardEntry; conflicts: ConflictChoice | 'ask'; id: string }) =>
      api.browse.paste({
        from: { account: v.entry.account, container: v.entry.container, names: v.entry.names, prefixes: v.entry.prefixes },
        to: { account, container, prefix },
        mode: v.entry.mode === 'cut' ? 'move' : 'copy',
        conflicts: v.conflicts,
        operationId: v.id,
      }),
    onSettled: (_r, _e, v) => {
      forget(v.id);
      const touched = [{ account, container }, { account: v.entry.account, container: v.entry.container }];
      return Promise.all(
        touched.flatMap((t) => [qc.invalidateQueries({ queryKey: queryKeys.folders(t.account, t.container) }), qc.invalidateQueries({ queryKey: queryKeys.containers(t.account) })]),
      );
    },
  });

  const run = (entry: ClipboardEntry, choice: ConflictChoice | 'ask') => {
    const id = newOperationId();
    setOperationId(id);
    setConflicts(null);
    setOutcome(null);
    mutation.mutate(
      { entry, conflicts: choice, id },
      {
        onSuccess: (r) => {
          if (r.status === 'conflicts') return setConflicts({ names: r.names, entry });
          if (entry.mode === 'cut') useClipboard.getState().clear();
          const pasted = r.pasted.map((p) => p.to);
          if (pasted.length > 0) useSelection.getState().apply({ selected: new Set(pasted), anchor: pasted[0]!, focus: pasted[0]! });
          setOutcome({ kind: 'done', message: (entry.mode === 'cut' ? s.moved : s.pasted)(formatCount(r.objects)), failures: r.errors });
        },
        onError: (err) => setOutcome({ kind: 'error', message: errorMessage(err) }),
      },
    );
  };
  const paste = () => {
    const entry = useClipboard.getState().entry;
    if (entry && !mutation.isPending) run(entry, 'ask');
  };

  const view = (
    <>
      {mutation.isPending && operationId ? <OperationProgressBar id={operationId} label={mutation.variables?.entry.mode === 'cut' ? s.moving : s.pasting} /> : null}
      {outcome?.kind === 'done' && outcome.failures.length === 0 ? (
        <p className="note" role="status">
          {outcome.message}
        </p>
      ) : null}
      {outcome?.kind === 'done' && outcome.failures.length > 0 ? (
        <div className="form-error" role="alert">
          <p>{s.failed(formatCount(outcome.failures.length))}</p>
          <ul>
            {outcome.failures.map((f) => (
              <li key={f.name}>{s.failure(f.name, f.message)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {outcome?.kind === 'error' ? (
        <p className="form-error" role="alert">
          {outcome.message}
        </p>
      ) : null}
      {conflicts ? (
        <PasteConflictDialog
          names={conflicts.names}
          where={`${container}/${prefix}`}
          onChoose={(choice) => run(conflicts.entry, choice)}
          onClose={() => setConflicts(null)}
        />
      ) : null}
    </>
  );
  return { paste, view };
}
