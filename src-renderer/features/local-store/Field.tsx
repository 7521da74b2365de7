import { strings } from '../../app/strings';
import { useLocalPanel } from '../../stores/local-panel';
import { CopyButton } from '../common/CopyButton';

/** One value to hand to another tool: label, the value (masked if secret), a copy button. */
export function Field({ label, value, secret }: { label: string; value: string; secret?: boolean }) {
  const show = useLocalPanel((s) => s.showSecrets);
  return (
    <div className="field">
      <dt>{label}</dt>
      <dd>
        <code className="field-value">{secret && !show ? strings.local.hidden : value}</code>
        <CopyButton value={value} what={label} />
      </dd>
    </div>
  );
}

/** A command line, shown with its secrets masked unless asked, copied whole. */
export function CommandLine({ label, command, secrets }: { label: string; command: string; secrets: string[] }) {
  const show = useLocalPanel((s) => s.showSecrets);
  const masked = secrets.reduce((text, secret) => (secret ? text.split(secret).join(strings.local.hidden) : text), command);
  const name = strings.local.commandLine(label);
  return (
    <div className="command" role="group" aria-label={name}>
      <div className="command-head">
        <span className="command-label">{label}</span>
        <CopyButton value={command} what={name} />
      </div>
      <pre className="command-text">
        <code>{show ? command : masked}</code>
      </pre>
    </div>
  );
}
