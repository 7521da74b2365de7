import { useRef, useState } from 'react';
import { errorMessage } from '../../app/errors';
import { formatBytes, formatDate } from '../../app/format';
import { strings } from '../../app/strings';
import { useCapabilities, useDeleteVersion, useRestoreVersion, useVersions } from '../../queries/use-object-ops';
import { Dialog, FormError } from '../common/Dialog';
import { useFocusWhenWanted } from '../details/DetailsPanel';
import { ErrorState, Loading } from '../common/States';

const s = strings.versions;

/** The versions of one object, where the backend keeps versions: restore one, or delete one. */
export function VersionsSection({ account, container, name }: { account: string; container: string; name: string }) {
  const caps = useCapabilities(account);
  const enabled = caps.data?.versions === true;
  const versions = useVersions(account, container, name, enabled);
  const restore = useRestoreVersion(account, container, name);
  const del = useDeleteVersion(account, container, name);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const ref = useRef<HTMLElement>(null);
  useFocusWhenWanted('versions', ref);
  if (!enabled) return null;
  const onError = (err: unknown) => setProblem(errorMessage(err));
  return (
    <section aria-label={s.title} ref={ref} tabIndex={-1}>
      <h3 className="details-subtitle">{s.title}</h3>
      {versions.isPending ? <Loading label={s.loading} /> : null}
      {versions.isError ? <ErrorState error={versions.error} onRetry={() => void versions.refetch()} /> : null}
      {versions.data ? (
        <table className="table compact meta-table" aria-label={s.title}>
          <thead>
            <tr>
              <th scope="col">{s.versionId}</th>
              <th scope="col">{s.actions}</th>
            </tr>
          </thead>
          <tbody>
            {versions.data.map((v) => (
              <tr key={v.versionId}>
                <th scope="row" className="mono wrap">
                  {v.versionId}
                  <div className="muted">
                    {formatDate(v.lastModified)} · {v.deleteMarker ? s.deleteMarker : formatBytes(v.size)}
                    {v.isLatest ? ` · ${s.latest}` : ''}
                  </div>
                </th>
                <td>
                  <div className="details-actions">
                    {!v.isLatest && !v.deleteMarker ? (
                      <button type="button" className="button" aria-label={s.restore(v.versionId)} disabled={restore.isPending} onClick={() => restore.mutate(v.versionId, { onError })}>
                        {s.restoreShort}
                      </button>
                    ) : null}
                    <button type="button" className="button danger" aria-label={s.remove(v.versionId)} onClick={() => setConfirming(v.versionId)}>
                      {s.removeShort}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <FormError problem={problem} />
      {confirming !== null ? (
        <Dialog title={s.deleteTitle} onClose={() => setConfirming(null)}>
          <p className="wrap">{s.deleteBody(confirming)}</p>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setConfirming(null)} autoFocus>
              {strings.common.cancel}
            </button>
            <button
              type="button"
              className="button danger"
              disabled={del.isPending}
              onClick={() => del.mutate(confirming, { onSuccess: () => setConfirming(null), onError: (err) => { setConfirming(null); onError(err); } })}
            >
              {del.isPending ? s.busy : s.deleteSubmit}
            </button>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
