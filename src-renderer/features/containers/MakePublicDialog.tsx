import { useState } from 'react';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { usePublicUrl, useSetPublic } from '../../queries/use-object-ops';
import { CopyButton } from '../common/CopyButton';
import { Dialog, FormError } from '../common/Dialog';

const s = strings.publish;

/**
 * Making a container public is asked first (anyone could then list and read it); once done,
 * the dialog shows the URL those readers use, to copy.
 */
export function MakePublicDialog({ account, name, alreadyPublic, onClose }: { account: string; name: string; alreadyPublic: boolean; onClose: () => void }) {
  const setPublic = useSetPublic(account, name);
  const [done, setDone] = useState(alreadyPublic);
  const url = usePublicUrl(account, name, done);
  const problem = setPublic.error ? s.failed(errorMessage(setPublic.error)) : url.error ? s.urlFailed(errorMessage(url.error)) : null;
  return (
    <Dialog title={done ? s.doneTitle(name) : s.title(name)} onClose={onClose}>
      {done ? (
        <>
          <p>{s.doneBody}</p>
          {url.data ? <PublicUrl url={url.data.url} /> : null}
        </>
      ) : (
        <p>{s.body(name)}</p>
      )}
      <FormError problem={problem} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          {done ? strings.common.close : strings.common.cancel}
        </button>
        {done ? null : (
          <button type="button" className="button primary" disabled={setPublic.isPending} onClick={() => setPublic.mutate({ on: true }, { onSuccess: () => setDone(true) })}>
            {setPublic.isPending ? s.busy : s.submit}
          </button>
        )}
      </div>
    </Dialog>
  );
}

/** The URL in a read-only field (selectable, fully visible when scrolled) and its copy button. */
export function PublicUrl({ url }: { url: string }) {
  return (
    <div className="share-url">
      <input readOnly value={url} aria-label={s.urlLabel} onFocus={(e) => e.target.select()} />
      <CopyButton value={url} what={s.urlLabel} />
    </div>
  );
}
