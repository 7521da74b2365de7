import { useId, useState, type FormEvent } from 'react';
import { s3BucketNameProblem } from '../../../src-shared/names';
import { errorCode, errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useConnections } from '../../queries/use-connections';
import { useCreateContainer } from '../../queries/use-containers';
import { useCapabilities } from '../../queries/use-object-ops';
import { Dialog, FormActions, FormError } from '../common/Dialog';
import { ContainerOptionsFields, NO_OPTIONS, optionsOf } from './ContainerOptionsFields';
import '../versions/versions.css';

const s = strings.containers.createDialog;

function explain(err: unknown, name: string): string {
  const code = errorCode(err);
  if (code === 'ContainerExists' || code === 'ContainerOwnedByYou') return strings.errors.containerExists(name);
  if (code === 'InvalidContainerName') return strings.errors.invalidContainerName(errorMessage(err));
  return errorMessage(err);
}

/**
 * A new container with its options (versioning, public read, a quota, S3 object lock) in one
 * dialog. The native API takes names S3 refuses ("Bad Name", "UPPER", "a"): where the connection
 * is not an S3 one (whose server refuses them itself), such a name is allowed with a warning
 * that S3 tools will not reach it.
 */
export function CreateContainerDialog({ account, onClose, onCreated }: { account: string; onClose: () => void; onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const [options, setOptions] = useState(NO_OPTIONS);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateContainer(account);
  const caps = useCapabilities(account).data;
  const kind = useConnections().data?.find((c) => c.id === account)?.kind;
  const inputId = useId();
  const hintId = useId();
  const warningId = useId();
  const trimmed = name.trim();
  const s3Problem = kind !== undefined && kind !== 's3' && trimmed ? s3BucketNameProblem(trimmed) : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!trimmed) return setProblem(s.required);
    const chosen = optionsOf(options);
    if (typeof chosen === 'string') return setProblem(chosen);
    setProblem(null);
    create.mutate({ container: trimmed, options: chosen }, { onSuccess: () => onCreated(trimmed), onError: (err) => setProblem(explain(err, trimmed)) });
  };
  return (
    <Dialog title={s.title} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <label htmlFor={inputId}>{s.nameLabel}</label>
        <input
          id={inputId}
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoFocus
          aria-describedby={s3Problem ? `${hintId} ${warningId}` : hintId}
          aria-invalid={problem !== null}
          spellCheck={false}
          autoComplete="off"
        />
        <p id={hintId} className="hint">
          {s.nameHint}
        </p>
        <p id={warningId} className="name-warning" role="status" hidden={!s3Problem}>
          {s3Problem ? strings.containerName.s3Warning(s3Problem) : ''}
        </p>
        <ContainerOptionsFields caps={caps} value={options} onChange={setOptions} />
        <FormError problem={problem} />
        <FormActions dismissLabel={strings.common.cancel} onDismiss={onClose} submitLabel={s.submit} busyLabel={s.busy} busy={create.isPending} />
      </form>
    </Dialog>
  );
}
