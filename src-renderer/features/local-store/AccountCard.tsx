import { useId, useState } from 'react';
import type { LocalUser } from '../../../src-shared/contract/local-store';
import { localConnectionId } from '../../../src-shared/model/local-connection';
import { errorMessage } from '../../app/errors';
import { formatBytes, formatCount } from '../../app/format';
import { strings } from '../../app/strings';
import { useAddLocalKey } from '../../queries/use-local-store';
import { useConnectionDialogs } from '../connections/store';
import { AddSwiftUserDialog } from './AddSwiftUserDialog';
import { awsCommand, rcloneCommand, swiftCommand } from './commands';
import { CommandLine, Field } from './Field';

const s = strings.local;
/** The first key keeps the plain label; later ones are numbered ("Access key 2"). */
const nth = (label: string, i: number) => (i === 0 ? label : `${label} ${i + 1}`);
const limit = (n: number, format: (n: number) => string) => (n < 0 ? strings.quota.noQuota : format(n));

/** One local account as other tools reach it: its storage URL, every key, command lines; adding keys and setting its quota. */
export function AccountCard({ user, s3Endpoint, authUrl }: { user: LocalUser; s3Endpoint: string; authUrl: string }) {
  const headingId = useId();
  const addKey = useAddLocalKey();
  const [addingSwift, setAddingSwift] = useState(false);
  const showDialog = useConnectionDialogs((d) => d.show);
  const key = user.keys[0];
  const swift = user.swiftKeys[0];
  return (
    <section aria-labelledby={headingId} className="card">
      <h2 id={headingId}>{s.user(user.displayName || user.id)}</h2>
      <p className="muted">
        {user.id} · {s.usage(formatCount(user.usage.objects), formatBytes(user.usage.bytes))} · {s.quota}: {limit(user.quota.maxBytes, formatBytes)}, {limit(user.quota.maxObjects, formatCount)}
      </p>
      <dl className="fields">
        <Field label={s.storageUrl} value={user.storageUrl} />
        {user.keys.map((k, i) => (
          <KeyFields key={k.accessKey} pair={[nth(s.accessKey, i), k.accessKey]} secret={[nth(s.secretKey, i), k.secretKey]} />
        ))}
        {user.swiftKeys.map((k, i) => (
          <KeyFields key={k.user} pair={[nth(s.swiftUser, i), k.user]} secret={[nth(s.swiftKey, i), k.secretKey]} />
        ))}
      </dl>
      <div className="card-actions">
        <button type="button" className="button" disabled={addKey.isPending} onClick={() => addKey.mutate({ account: user.id, kind: 's3' })}>
          {addKey.isPending ? s.adding : s.addS3Key}
        </button>
        <button type="button" className="button" onClick={() => setAddingSwift(true)}>
          {s.addSwiftUser}
        </button>
        <button type="button" className="button" onClick={() => showDialog({ kind: 'quota', account: localConnectionId(user.id) })}>
          {s.setQuota}
        </button>
        {addKey.isError ? (
          <p className="form-error" role="alert">
            {errorMessage(addKey.error)}
          </p>
        ) : null}
      </div>
      <h3 className="details-subtitle">{s.commands}</h3>
      {key ? (
        <>
          <CommandLine label={s.awsCommand} command={awsCommand({ endpoint: s3Endpoint, accessKey: key.accessKey, secretKey: key.secretKey })} secrets={[key.secretKey]} />
          <CommandLine label={s.rcloneCommand} command={rcloneCommand({ endpoint: s3Endpoint, accessKey: key.accessKey, secretKey: key.secretKey })} secrets={[key.secretKey]} />
        </>
      ) : null}
      {swift ? <CommandLine label={s.swiftCommand} command={swiftCommand({ authUrl, user: swift.user, key: swift.secretKey })} secrets={[swift.secretKey]} /> : null}
      {addingSwift ? <AddSwiftUserDialog account={user.id} onClose={() => setAddingSwift(false)} /> : null}
    </section>
  );
}

function KeyFields({ pair, secret }: { pair: [string, string]; secret: [string, string] }) {
  return (
    <>
      <Field label={pair[0]} value={pair[1]} />
      <Field label={secret[0]} value={secret[1]} secret />
    </>
  );
}
