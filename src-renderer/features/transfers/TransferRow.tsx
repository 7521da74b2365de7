import { memo } from 'react';
import type { TransferItem } from '../../../src-shared/contract/transfers';
import { canResend } from '../../api/uploads';
import { formatBytes } from '../../app/format';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { transferCommands } from './actions';
import { useTransfers } from './store';
import { canCancel, canPause, canResume, canRetry, etaSeconds, formatDuration, fraction } from './progress';

const s = strings.transfers;

export const TRANSFER_ROW_HEIGHT = 58;

/** One item of the queue: what, where, how far, and the commands that apply to it now. */
export const TransferRow = memo(function TransferRow({ item, connection, index, count, top }: { item: TransferItem; connection: string; index: number; count: number; top: number }) {
  const f = fraction(item);
  const eta = item.state === 'running' ? etaSeconds(item) : null;
  const ids = [item.id];
  const retryable = canRetry(item) && canResend(item.id);
  const pausable = canPause(item, canResend(item.id));
  const note = useTransfers((st) => st.notes[item.id] ?? null);
  // Main's own words first; else why this page's upload of it was refused.
  const error = item.error ?? note;
  return (
    <div role="listitem" aria-label={item.name} aria-posinset={index + 1} aria-setsize={count} className={`transfer-row state-${item.state}`} style={{ transform: `translateY(${top}px)` }}>
      <div className="transfer-line">
        <Icon name={item.direction === 'upload' ? 'upload' : 'download'} />
        <span className="transfer-name mono" title={item.name}>
          {item.name}
        </span>
        <span className="muted">{s.where(s.directions[item.direction], connection, item.container)}</span>
        <span className="spacer" />
        <span className="transfer-state">{s.states[item.state]}</span>
        {item.verified ? (
          <span className="transfer-verified" title={s.verifiedTitle}>
            {s.verified}
          </span>
        ) : null}
        {pausable ? (
          <button type="button" className="button small" aria-label={s.pause(item.name)} onClick={() => void transferCommands.pause(ids)}>
            {s.pauseShort}
          </button>
        ) : null}
        {canResume(item) ? (
          <button type="button" className="button small" aria-label={s.resume(item.name)} onClick={() => void transferCommands.resume(ids)}>
            {s.resumeShort}
          </button>
        ) : null}
        {retryable ? (
          <button type="button" className="button small" aria-label={s.retry(item.name)} onClick={() => void transferCommands.retry(ids)}>
            {s.retryShort}
          </button>
        ) : null}
        {canCancel(item) ? (
          <button type="button" className="button small" aria-label={s.cancel(item.name)} onClick={() => void transferCommands.cancel(ids)}>
            {s.cancelShort}
          </button>
        ) : null}
      </div>
      <div className="transfer-line">
        <progress className="transfer-progress" aria-label={s.progressOf(item.name)} max={1} {...(f === null ? {} : { value: f })} />
        <span className="transfer-numbers num">
          {amountText(item)}
          {item.state === 'running' && item.bytesPerSecond ? ` · ${s.speed(formatBytes(item.bytesPerSecond))}` : ''}
          {eta !== null ? ` · ${s.eta(formatDuration(eta))}` : ''}
        </span>
        {error ? (
          <span className="transfer-error" title={error}>
            {error}
          </span>
        ) : null}
      </div>
    </div>
  );
});

/** What arrived: all of it once done; what was sent, and that nothing was stored, after a failure. */
function amountText(item: TransferItem): string {
  if (item.state === 'done') return s.amount(formatBytes(item.size ?? item.transferred), formatBytes(item.size));
  if (item.state === 'failed' || item.state === 'cancelled') return s.notStored(formatBytes(item.transferred), formatBytes(item.size));
  return s.amount(formatBytes(item.transferred), formatBytes(item.size));
}
