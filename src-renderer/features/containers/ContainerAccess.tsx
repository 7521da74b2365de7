import { useState } from 'react';
import type { ContainerSummary } from '../../../src-shared/model/storage';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useSetPublic } from '../../queries/use-object-ops';
import { useDialogs } from '../../stores/dialogs';

const s = strings.containers;

/**
 * A container's access as a badge, and the buttons that change it (both offered while unknown):
 * making it public asks first and then shows its URL; a public one offers that URL again.
 */
export function ContainerAccess({ account, container, canChange }: { account: string; container: ContainerSummary; canChange: boolean }) {
  const setPublic = useSetPublic(account, container.name);
  const show = useDialogs((d) => d.show);
  const [problem, setProblem] = useState<string | null>(null);
  const state = container.public;
  const makePrivate = () => {
    setProblem(null);
    setPublic.mutate({ on: false }, { onError: (err) => setProblem(s.accessFailed(container.name, errorMessage(err))) });
  };
  return (
    <div className="container-access">
      <span className={`badge${state ? ' public' : ''}`} title={state ? s.publicHint : undefined}>
        {state === null ? s.accessUnknown : state ? s.publicBadge : s.privateBadge}
      </span>
      {canChange && state !== true ? (
        <button type="button" className="button small" aria-label={s.makePublic(container.name)} onClick={() => show({ kind: 'make-public', name: container.name })}>
          {s.makePublicShort}
        </button>
      ) : null}
      {state === true ? (
        <button type="button" className="button small" aria-label={strings.publish.show(container.name)} onClick={() => show({ kind: 'make-public', name: container.name, alreadyPublic: true })}>
          {strings.publish.showShort}
        </button>
      ) : null}
      {canChange && state !== false ? (
        <button type="button" className="button small" aria-label={s.makePrivate(container.name)} disabled={setPublic.isPending} onClick={makePrivate}>
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
