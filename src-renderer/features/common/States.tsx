// Loading, empty and error states, the same everywhere.
import type { ReactNode } from 'react';
import { describeError } from '../../app/errors';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';

export function Loading({ label }: { label: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function Empty({ title, body, children }: { title: string; body?: string; children?: ReactNode }) {
  return (
    <section className="state state-empty" aria-label={title}>
      <h2>{title}</h2>
      {body ? <p>{body}</p> : null}
      {children}
    </section>
  );
}

/** Says what happened in plain words (server unreachable, session expired, or its own message) and offers a retry. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const d = describeError(error);
  return (
    <div className={`state state-error state-error-${d.kind}`} role="alert">
      <h2>
        <Icon name="alert" size={18} /> {d.title}
      </h2>
      {d.body ? <p>{d.body}</p> : null}
      <p className="state-detail">{d.detail}</p>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          {strings.common.retry}
        </button>
      ) : null}
    </div>
  );
}
