import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../app/errors';
import { formatDate } from '../../app/format';
import { strings } from '../../app/strings';
import { useShareLink } from '../../queries/use-object-ops';
import { Dialog, FormActions, FormError } from '../common/Dialog';
import { CopyButton } from '../common/CopyButton';

const s = strings.sharing;
const HOUR = 3600;
/** The lifetimes offered; 7 days is the most an S3 presigned URL can last. */
const LIFETIMES = [
  { seconds: HOUR, label: s.lifetimes.hour },
  { seconds: 24 * HOUR, label: s.lifetimes.day },
  { seconds: 3 * 24 * HOUR, label: s.lifetimes.threeDays },
  { seconds: 7 * 24 * HOUR, label: s.lifetimes.week },
] as const;

/** A time-limited link to one object: pick a lifetime, get the URL, copy it. */
export function ShareLinkDialog({ account, container, name, onClose }: { account: string; container: string; name: string; onClose: () => void }) {
  const [seconds, setSeconds] = useState<number>(24 * HOUR);
  const [problem, setProblem] = useState<string | null>(null);
  const link = useShareLink(account, container, name);
  const ids = { lifetime: useId(), note: useId(), url: useId() };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    link.mutate(seconds, { onError: (err) => setProblem(errorMessage(err)) });
  };
  const base = name.slice(name.lastIndexOf('/') + 1);
  return (
    <Dialog title={s.dialogTitle(base)} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <label htmlFor={ids.lifetime}>{s.lifetime}</label>
        <select
          id={ids.lifetime}
          value={seconds}
          aria-describedby={ids.note}
          onChange={(e) => {
            setSeconds(Number(e.target.value));
            link.reset();
          }}
        >
          {LIFETIMES.map((l) => (
            <option key={l.seconds} value={l.seconds}>
              {l.label}
            </option>
          ))}
        </select>
        <p id={ids.note} className="hint">
          {s.limitNote}
        </p>
        {link.data ? (
          <>
            <label htmlFor={ids.url}>{s.link}</label>
            <div className="share-url">
              <input id={ids.url} readOnly value={link.data.url} onFocus={(e) => e.currentTarget.select()} />
              <CopyButton value={link.data.url} what={s.linkWhat} />
            </div>
            <p className="hint">{s.expires(formatDate(link.data.expiresAt))}</p>
          </>
        ) : null}
        <FormError problem={problem} />
        <FormActions dismissLabel={strings.common.close} onDismiss={onClose} submitLabel={s.create} busyLabel={s.busy} busy={link.isPending} />
      </form>
    </Dialog>
  );
}
