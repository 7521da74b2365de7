import { useState } from 'react';
import type { ContainerSummary } from '../../../src-shared/model/storage';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useSetPublic } from '../../queries/use-object-ops';

const s = strings.containers;

/** A container's access as a badge, and the button that flips it (both offered while unknown). */
export function ContainerAccess({ account, container, canChange }: { account: string; container: ContainerSummary; canChange: boolean }) {
  const setPublic = useSetPublic(account, container.name);
  const [problem, setProblem] = useState<string | null>(null);
  const state = container.public;
  const change = (on: boolean) => {
    setProblem(null);
    setPublic.mutate({ on }, { onError: (err) => setProblem(s.accessFailed(container.name, errorMessage(err))) });
  };
  return (
    <div className="container-access">
      <span className={`badge${state ? ' public' : ''}`} title={state ? s.publicHint : undefined}>
        {state === null ? s.accessUnknown : state ? s.publicBadge : s.privateBadge}
      </span>
      {canChange && state !== true ? (
        <button type="button" className="button small" aria-label={s.makePublic(container.name)} disabled={setPublic.isPending} onClick={() => change(true)}>
          {s.makePublicShort}
        </button>
      ) : null}
      {canChange && state !== false ? (
        <button type="button" className="button small" aria-label={s.makePrivate(container.name)} disabled={setPublic.isPending} onClick={() => change(false)}>
          {s.makePrivateShort}
        </button>
      ) : null}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
