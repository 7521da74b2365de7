import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { useNavigation } from '../../stores/navigation';

/** Containers › container › folder › subfolder; each level a button, the last one the current page. */
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
            {strings.browser.root}
          </button>
        </li>
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={c.target}>
              <Icon name="chevron" size={12} />
              <button type="button" className="crumb" aria-current={last ? 'page' : undefined} onClick={() => openFolder(c.target)}>
                {i === 0 ? <Icon name="container" size={14} /> : null}
                {c.label}
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
