import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { useNavigation } from '../../stores/navigation';
import { tooltip } from '../common/Tooltips';

/**
 * Containers › container › folder › subfolder; each level a button, the last one the current page.
 * In a narrow window the levels above the current one are cut short first; each level's tooltip
 * (and its text, for screen readers) keeps the whole path.
 */
export function Breadcrumbs({ container, prefix }: { container: string; prefix: string }) {
  const showContainers = useNavigation((s) => s.showContainers);
  const openFolder = useNavigation((s) => s.openFolder);
  const parts = prefix.split('/').filter(Boolean);
  const crumbs = [
    { label: container, target: '' },
    ...parts.map((label, i) => ({ label, target: `${parts.slice(0, i + 1).join('/')}/` })),
  ];
  return (
    <nav className="breadcrumbs" aria-label={strings.browser.breadcrumbs}>
      <ol>
        <li>
          <button type="button" className="crumb" onClick={showContainers}>
            <span className="crumb-text">{strings.browser.root}</span>
          </button>
        </li>
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={c.target}>
              <Icon name="chevron" size={12} />
              <button type="button" className="crumb" aria-current={last ? 'page' : undefined} onClick={() => openFolder(c.target)} {...tooltip(strings.path.full(container, c.target))}>
                {i === 0 ? <Icon name="container" size={14} /> : null}
                <span className="crumb-text">{c.label}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
