import { useId, useMemo } from 'react';
import { canResend } from '../../api/uploads';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { transferCommands } from './actions';
import { etaSeconds, formatDuration, totals } from './progress';
import { useTransfers } from './store';
import { TransferList } from './TransferList';
import { UploadPrompts } from './UploadPrompts';
import { useTransferFeed } from './use-transfer-feed';
import './transfers.css';

const s = strings.transfers;
export const TRANSFERS_PANEL_ID = 'transfers-panel';
const CONCURRENCY_CHOICES = Array.from({ length: 16 }, (_, i) => i + 1);

/** The transfer queue under the main area (shown from the status bar), and the upload questions. */
export function TransfersPanel() {
  useTransferFeed();
  const open = useTransfers((t) => t.panelOpen);
  return (
    <>
      <UploadPrompts />
      {open ? (
        <section id={TRANSFERS_PANEL_ID} className="transfers" aria-label={s.panel}>
          <PanelHeader />
          <TransferList />
        </section>
      ) : null}
    </>
  );
}

function PanelHeader() {
  const items = useTransfers((t) => t.items);
  const hint = useTransfers((t) => t.hint);
  const concurrency = useTransfers((t) => t.concurrency);
  const setHint = useTransfers((t) => t.setHint);
  const close = useTransfers((t) => t.setPanelOpen);
  const t = useMemo(() => totals(items, canResend), [items]);
  const selectId = useId();
  const f = t.bytes > 0 ? Math.min(1, t.transferred / t.bytes) : t.active > 0 ? 0 : 1;
  const eta = t.active > 0 ? etaSeconds({ size: t.bytes, transferred: t.transferred, bytesPerSecond: t.bytesPerSecond }) : null;
  return (
    <div className="transfers-header">
      <div className="transfers-toolbar" role="toolbar" aria-label={s.toolbar}>
        <h2 className="toolbar-title">{s.panel}</h2>
        <progress className="transfers-total" aria-label={s.totalProgress} max={1} value={f} />
        <span className="muted num">
          {t.active > 0 ? s.summaryActive(formatCount(t.active), formatBytes(t.transferred), formatBytes(t.bytes)) : s.summaryIdle(formatCount(items.length))}
          {t.active > 0 && t.bytesPerSecond > 0 ? ` · ${s.speed(formatBytes(t.bytesPerSecond))}` : ''}
          {eta !== null ? ` · ${s.eta(formatDuration(eta))}` : ''}
        </span>
        <span className="spacer" />
        {t.pausable > 0 ? (
          <button type="button" className="button small" onClick={() => void transferCommands.pause()}>
            {s.pauseAll}
          </button>
        ) : null}
        {t.resumable > 0 ? (
          <button type="button" className="button small" onClick={() => void transferCommands.resume()}>
            {s.resumeAll}
          </button>
        ) : null}
        {t.active > 0 ? (
          <button type="button" className="button small" onClick={() => void transferCommands.cancel()}>
            {s.cancelAll}
          </button>
        ) : null}
        {t.failed > 0 ? (
          <button type="button" className="button small" onClick={() => void transferCommands.retry()}>
            {s.retryAll}
          </button>
        ) : null}
        <button type="button" className="button small" disabled={t.finished === 0} onClick={() => void transferCommands.clearFinished()}>
          {s.clearFinished}
        </button>
        <label htmlFor={selectId} className="muted">
          {s.concurrency}
        </label>
        <select id={selectId} value={concurrency || ''} onChange={(e) => void transferCommands.setConcurrency(Number(e.target.value))}>
          {concurrency ? null : <option value="" />}
          {CONCURRENCY_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button type="button" className="icon-button" aria-label={s.hide} title={s.hide} onClick={() => close(false)}>
          ×
        </button>
      </div>
      {hint ? (
        <p className="note transfers-hint" role="status">
          {hint}{' '}
          <button type="button" className="link-button" onClick={() => setHint(null)}>
            {s.dismissHint}
          </button>
        </p>
      ) : null}
    </div>
  );
}
