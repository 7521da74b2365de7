import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { ACTIVE } from './progress';
import { useTransfers } from './store';
import { TRANSFERS_PANEL_ID } from './TransfersPanel';
import { useUploadFlow } from './upload-flow';

/** The status bar's switch for the transfers panel, with the number of unfinished items. */
export function TransfersToggle() {
  const open = useTransfers((t) => t.panelOpen);
  const setOpen = useTransfers((t) => t.setPanelOpen);
  const active = useTransfers((t) => t.items.reduce((n, i) => n + (ACTIVE.has(i.state) ? 1 : 0), 0));
  // Planning a dropped folder of thousands of files takes a moment: say so.
  const preparing = useUploadFlow((f) => f.pending.some((p) => p.step === 'planning' || p.step === 'starting'));
  return (
    <>
      <span role="status" className="statusbar-preparing">
        {preparing ? strings.transfers.preparing : ''}
      </span>
      <button type="button" className="statusbar-button" aria-expanded={open} aria-controls={TRANSFERS_PANEL_ID} onClick={() => setOpen(!open)}>
        {strings.transfers.toggle}
        {active > 0 ? (
          <span className="badge">
            <span aria-hidden="true">{formatCount(active)}</span>
            <span className="visually-hidden">{strings.transfers.activeCount(formatCount(active))}</span>
          </span>
        ) : null}
      </button>
    </>
  );
}
