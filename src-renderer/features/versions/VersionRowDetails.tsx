import { formatBytes, formatDate } from '../../app/format';
import { Icon } from '../../app/icons';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useRestoreVersion } from '../../queries/use-object-ops';
import { useOperations } from '../../stores/operations';
import type { Row } from '../browser/rows';
import { FormError } from '../common/Dialog';
import { VersionsSection } from '../operations/VersionsSection';

const s = strings.showDeleted;

/**
 * A row of a deleted object, an earlier version or a delete marker: what it is, what brings it
 * back, and every version of its object (each restored or deleted there).
 */
export function VersionRowDetails({ account, container, row }: { account: string; container: string; row: Row }) {
  const v = row.version!;
  const show = useOperations((o) => o.show);
  const restore = useRestoreVersion(account, container, v.name);
  const when = formatDate(row.modified);
  let text = s.earlierFrom(when, formatBytes(row.size));
  if (v.deleted) text = s.deletedOn(when);
  else if (v.deleteMarker) text = s.markerFrom(when);
  return (
    <div>
      <div className="details-head">
        <Icon name="history" size={28} />
        <p className="details-name" title={v.name}>
          {row.label}
        </p>
      </div>
      <p className="wrap">{text}</p>
      <div className="details-actions">
        {v.deleted ? (
          <button type="button" className="button" onClick={() => show({ kind: 'undelete', names: [v.name] })}>
            {s.undelete}
          </button>
        ) : null}
        {!v.deleteMarker ? (
          <button type="button" className="button" disabled={restore.isPending} onClick={() => restore.mutate(v.id)}>
            {s.restoreVersion}
          </button>
        ) : null}
      </div>
      <FormError problem={restore.isError ? errorMessage(restore.error) : null} />
      <VersionsSection key={`versions:${v.name}`} account={account} container={container} name={v.name} />
    </div>
  );
}
