import { strings } from '../../app/strings';
import { Dialog } from '../common/Dialog';

const s = strings.clipboard;
export type ConflictChoice = 'keepBoth' | 'replace' | 'skip';

/** Names the paste would overwrite: keep both (a "(copy)" name), replace, or skip them. */
export function PasteConflictDialog({ names, where, onChoose, onClose }: { names: readonly string[]; where: string; onChoose: (c: ConflictChoice) => void; onClose: () => void }) {
  return (
    <Dialog title={s.conflictTitle} onClose={onClose}>
      <p>{s.conflictIntro(where)}</p>
      <ul className="delete-list" aria-label={s.conflictList}>
        {names.map((n) => (
          <li key={n} className="mono">
            {n}
          </li>
        ))}
      </ul>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {strings.common.cancel}
        </button>
        <button type="button" className="button" onClick={() => onChoose('skip')}>
          {s.skip}
        </button>
        <button type="button" className="button danger" onClick={() => onChoose('replace')}>
          {s.replace}
        </button>
        <button type="button" className="button primary" onClick={() => onChoose('keepBoth')} data-autofocus>
          {s.keepBoth}
        </button>
      </div>
    </Dialog>
  );
}
