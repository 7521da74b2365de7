import { useState } from 'react';
import type { ObjectDetails } from '../../../src-shared/model/storage';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useCapabilities, useSetPublic } from '../../queries/use-object-ops';
import { ShareLinkDialog } from './ShareLinkDialog';
import { FormError } from '../common/Dialog';

const s = strings.sharing;

/** Public / private and share links for one object, shown only where the backend can do them. */
export function SharingActions({ account, container, details }: { account: string; container: string; details: ObjectDetails }) {
  const caps = useCapabilities(account);
  const setPublic = useSetPublic(account, container);
  const [sharing, setSharing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!caps.data || (!caps.data.publicObjects && !caps.data.shareLinks)) return null;
  const toggle = (on: boolean) => {
    setProblem(null);
    setPublic.mutate({ name: details.name, on }, { onError: (err) => setProblem(errorMessage(err)) });
  };
  return (
    <section aria-label={s.title}>
      <h3 className="details-subtitle">{s.title}</h3>
      <div className="details-actions">
        {caps.data.publicObjects ? (
          <button type="button" className="button" disabled={setPublic.isPending} onClick={() => toggle(!details.publicRead)}>
            {details.publicRead ? s.makePrivate : s.makePublic}
          </button>
        ) : null}
        {caps.data.shareLinks ? (
          <button type="button" className="button" onClick={() => setSharing(true)}>
            {s.shareLink}
          </button>
        ) : null}
      </div>
      {details.publicRead ? <p className="hint">{s.publicNote}</p> : null}
      <FormError problem={problem} />
      {sharing ? <ShareLinkDialog account={account} container={container} name={details.name} onClose={() => setSharing(false)} /> : null}
    </section>
  );
}
