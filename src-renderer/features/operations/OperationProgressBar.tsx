import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useProgress } from '../../stores/progress';
import './progress.css';

const s = strings.clipboard;

/**
 * The progress of one long operation, from its 'operation.progress' events: a bar of done/total,
 * or, while whole folders are still being listed and the total is unknown, a moving bar and the
 * count so far.
 */
export function OperationProgressBar({ id, label }: { id: string; label: string }) {
  const p = useProgress((x) => x.byId[id]);
  const done = p?.done ?? 0;
  const total = p?.total ?? null;
  const text = total === null ? s.progressCount(formatCount(done)) : s.progressOf(formatCount(done), formatCount(total));
  const percent = total ? Math.min(100, Math.round((done / total) * 100)) : null;
  return (
    <div className="operation-progress">
      <span className="operation-progress-label">{label}</span>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        {...(total !== null ? { 'aria-valuemax': total, 'aria-valuenow': done } : {})}
        aria-valuetext={text}
        className={`operation-progress-bar${percent === null ? ' indeterminate' : ''}`}
      >
        <span className="operation-progress-fill" style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
      <span className="operation-progress-text">{text}</span>
    </div>
  );
}
