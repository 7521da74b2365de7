import type { ContainerSummary } from '../../../src-shared/model/storage';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { QuotaMeter } from '../quota/QuotaMeter';

const s = strings.containers;

/** A container's usage against its own quota, where one is set (each limit its own bar). */
export function ContainerQuota({ container }: { container: ContainerSummary }) {
  const q = container.quota;
  if (!q) return <span className="muted">{s.noContainerQuota}</span>;
  return (
    <div className="container-quota">
      {q.maxBytes !== null ? <QuotaMeter label={s.quotaBytes(container.name)} used={container.bytes} counted={container.quotaBytes} max={q.maxBytes} format={formatBytes} /> : null}
      {q.maxObjects !== null ? <QuotaMeter label={s.quotaObjects(container.name)} used={container.objects} max={q.maxObjects} format={formatCount} /> : null}
    </div>
  );
}
