import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { errorMessage } from '../../app/errors';
import { formatDate } from '../../app/format';
import { strings } from '../../app/strings';
import { Dialog, FormError } from '../common/Dialog';
import { ErrorState, Loading } from '../common/States';

const s = strings.transfers.unfinished;
const unfinishedKey = (account: string, container: string) => ['transfers', 'unfinished', account, container] as const;

/** Multipart uploads started in this container and never completed: their parts use space until aborted. */
export function UnfinishedUploadsDialog({ account, container, onClose }: { account: string; container: string; onClose: () => void }) {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: unfinishedKey(account, container), queryFn: () => api.transfers.listUnfinished({ account, container }), staleTime: 0 });
  const [problem, setProblem] = useState<string | null>(null);
  const abort = useMutation({
    mutationFn: (u: { name: string; uploadId: string }) => api.transfers.abortUnfinished({ account, container, ...u }),
    onError: (err) => setProblem(errorMessage(err)),
    onSettled: () => qc.invalidateQueries({ queryKey: unfinishedKey(account, container) }),
  });
  return (
    <Dialog title={s.title(container)} onClose={onClose}>
      <p>{s.intro}</p>
      {list.isPending ? <Loading label={s.loading} /> : null}
      {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.data && list.data.length === 0 ? <p className="muted">{s.empty}</p> : null}
      {list.data && list.data.length > 0 ? (
        <div className="table-scroll unfinished-scroll">
          <table className="table compact">
            <caption className="visually-hidden">{s.tableLabel}</caption>
            <thead>
              <tr>
                <th scope="col">{s.name}</th>
                <th scope="col">{s.started}</th>
                <th scope="col">
                  <span className="visually-hidden">{s.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((u) => (
                <tr key={u.uploadId}>
                  <th scope="row" className="mono wrap">
                    {u.name}
                  </th>
                  <td>{formatDate(u.initiated)}</td>
                  <td>
                    <button type="button" className="button danger" aria-label={s.abort(u.name)} disabled={abort.isPending} onClick={() => abort.mutate({ name: u.name, uploadId: u.uploadId })}>
                      {s.abortShort}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <FormError problem={problem} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          {strings.common.close}
        </button>
      </div>
    </Dialog>
  );
}
