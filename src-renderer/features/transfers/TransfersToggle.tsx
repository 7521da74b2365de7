import { formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { ACTIVE } from './progress';
import { useTransfers } from './store';
import { TRANSFERS_PANEL_ID } from './TransfersPanel';

/** The status bar's switch for the transfers panel, with the number of unfinished items. */
export function TransfersToggle() {
  const open = useTransfers((t) => t.panelOpen);
  const setOpen = useTransfers((t) => t.setPanelOpen);
  const active = useTransfers((t) => t.items.reduce((n, i) => n + (ACTIVE.has(i.state) ? 1 : 0), 0));
  return (
    <button type="button" className="statusbar-button" aria-expanded={open} aria-controls={TRANSFERS_PANEL_ID} onClick={() => setOpen(!open)}>
      {strings.transfers.toggle}
      {active > 0 ? (
        <span className="badge">
          <span aria-hidden="true">{formatCount(active)}</span>
          <span className="visually-hidden">{strings.transfers.activeCount(formatCount(active))}</span>
        </span>
      ) : null}
    </button>
  );
}
