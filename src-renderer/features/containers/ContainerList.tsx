import { useEffect, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { ContainerSummary } from '../../../src-shared/model/storage';
import { formatBytes, formatCount, formatDate } from '../../app/format';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { useContainers } from '../../queries/use-containers';
import { useCapabilities } from '../../queries/use-object-ops';
import { useDialogs } from '../../stores/dialogs';
import { useNavigation } from '../../stores/navigation';
import { focusHome, lastContainerShown, reclaimFocus } from '../common/focus';
import { Empty, ErrorState, Loading } from '../common/States';
import { useContainerDrops } from '../transfers/drop';
import type { MenuPosition } from '../context-menu/Menu';
import { ContainerAccess } from './ContainerAccess';
import { ContainerMenu } from './ContainerMenu';
import { ContainerQuota } from './ContainerQuota';
import './containers.css';

const s = strings.containers;

/** The containers (buckets) of one connection, with their counters where the backend knows them. */
export function ContainerList({ account }: { account: string }) {
  const containers = useContainers(account);
  const open = useNavigation((n) => n.openContainer);
  const dropProps = useContainerDrops(account);
  const show = useDialogs((d) => d.show);
  const caps = useCapabilities(account);
  const list = containers.data;
  const canChangeAccess = caps.data?.publicRead === true;
  const [menu, setMenu] = useState<{ at: MenuPosition; container: ContainerSummary } | null>(null);
  const onRowMenu = (e: MouseEvent, c: ContainerSummary) => {
    e.preventDefault();
    setMenu({ at: { x: e.clientX, y: e.clientY }, container: c });
  };
  // The menu key or Shift+F10 on a row's controls opens the same menu below the row.
  const onRowKey = (e: KeyboardEvent<HTMLTableRowElement>, c: ContainerSummary) => {
    if (e.key !== 'ContextMenu' && !(e.key === 'F10' && e.shiftKey)) return;
    e.preventDefault();
    const r = e.currentTarget.getBoundingClientRect();
    setMenu({ at: { x: r.left + 24, y: r.bottom }, container: c });
  };
  // The quota column only where some container has one: most accounts set none.
  const anyQuota = list?.some((c) => c.quota !== null) ?? false;
  // Coming back from a container (Backspace, the breadcrumb), the keyboard lands on it, as in a file manager.
  const left = lastContainerShown(account);
  const home = list?.some((c) => c.name === left) ? left : (list?.[0]?.name ?? null);
  useEffect(() => reclaimFocus(), [list]);
  return (
    <section className="containers" aria-label={s.title}>
      <div className="toolbar">
        <h2 className="toolbar-title">{s.title}</h2>
        {list ? <span className="muted">{s.summary(formatCount(list.length))}</span> : null}
        <span className="spacer" />
        <button type="button" className="button primary" onClick={() => show({ kind: 'create-container' })} {...(list && home === null ? focusHome : {})}>
          <Icon name="plus" /> {s.create}
        </button>
      </div>
      {containers.isPending ? <Loading label={s.loading} /> : null}
      {containers.isError ? <ErrorState error={containers.error} onRetry={() => void containers.refetch()} /> : null}
      {list && list.length === 0 ? <Empty title={s.empty} body={s.emptyBody} /> : null}
      {list && list.length > 0 ? (
        <div className="table-scroll">
          <table className="table">
            <caption className="visually-hidden">{s.tableLabel}</caption>
            <thead>
              <tr>
                <th scope="col">{s.name}</th>
                <th scope="col" className="num">
                  {s.objects}
                </th>
                <th scope="col" className="num">
                  {s.size}
                </th>
                <th scope="col">{s.created}</th>
                <th scope="col">{s.access}</th>
                {anyQuota ? <th scope="col">{s.quota}</th> : null}
                <th scope="col">
                  <span className="visually-hidden">{s.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr key={c.name} onDoubleClick={() => open(c.name)} onContextMenu={(e) => onRowMenu(e, c)} onKeyDown={(e) => onRowKey(e, c)} {...dropProps(c.name)}>
                  <th scope="row">
                    <button type="button" className="link-button" onClick={() => open(c.name)} title={s.open(c.name)} {...(c.name === home ? focusHome : {})}>
                      <Icon name="container" /> {c.name}
                    </button>
                  </th>
                  <td className="num">{formatCount(c.objects)}</td>
                  <td className="num">{formatBytes(c.bytes)}</td>
                  <td>{formatDate(c.created)}</td>
                  <td>
                    <ContainerAccess account={account} container={c} canChange={canChangeAccess} />
                  </td>
                  {anyQuota ? (
                    <td>
                      <ContainerQuota container={c} />
                    </td>
                  ) : null}
                  <td className="actions">
                    <button type="button" className="icon-button danger" aria-label={s.delete(c.name)} title={s.delete(c.name)} onClick={() => show({ kind: 'delete-container', name: c.name })}>
                      <Icon name="trash" />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {menu ? <ContainerMenu account={account} container={menu.container} at={menu.at} canChangeAccess={canChangeAccess} onClose={() => setMenu(null)} /> : null}
    </section>
  );
}
