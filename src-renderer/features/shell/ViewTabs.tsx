import { strings } from '../../app/strings';
import { useNavigation, type MainView } from '../../stores/navigation';

const TABS: { view: MainView; label: string }[] = [
  { view: 'containers', label: strings.tabs.containers },
  { view: 'endpoints', label: strings.tabs.endpoints },
];

export const tabId = (view: MainView) => `tab-${view}`;
export const panelId = (view: MainView) => `panel-${view}`;

/** The local store's two faces: its containers, and how other tools reach it. */
export function ViewTabs() {
  const view = useNavigation((s) => s.view);
  const show = useNavigation((s) => s.showView);
  const move = (by: number) => {
    const i = TABS.findIndex((t) => t.view === view);
    const next = TABS[(i + by + TABS.length) % TABS.length]!;
    show(next.view);
    document.getElementById(tabId(next.view))?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={strings.tabs.label}>
      {TABS.map((t) => (
        <button
          key={t.view}
          id={tabId(t.view)}
          type="button"
          role="tab"
          className="tab"
          aria-selected={view === t.view}
          aria-controls={panelId(t.view)}
          tabIndex={view === t.view ? 0 : -1}
          onClick={() => show(t.view)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') move(1);
            else if (e.key === 'ArrowLeft') move(-1);
          }}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
