import { useEffect, useState } from 'react';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';

/** Copies a value to the clipboard; says so (politely) for screen readers too. */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(null), 2000);
    return () => clearTimeout(t);
  }, [done]);
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setDone('copied'),
      () => setDone('failed'),
    );
  };
  return (
    <span className="copy">
      <button type="button" className="icon-button" aria-label={strings.local.copy(what)} title={strings.local.copy(what)} onClick={copy}>
        <Icon name="copy" />
      </button>
      <span className="copy-status" role="status">
        {done === 'copied' ? strings.local.copied(what) : done === 'failed' ? strings.local.copyFailed : ''}
      </span>
    </span>
  );
}
