import type { ReactNode } from 'react';
import type { ObjectDetails } from '../../../src-shared/model/storage';
import { COMMON_HEADERS } from '../../../src-shared/standard-headers';
import { formatBytes, formatCount, formatDate } from '../../app/format';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { useHead } from '../../queries/use-folder';
import { ErrorState, Loading } from '../common/States';
import { SharingActions } from '../operations/SharingActions';
import { VersionsSection } from '../operations/VersionsSection';
import { Preview } from '../preview/Preview';
import { MetadataSection } from './MetadataEditor';

const s = strings.details;

/** One object's system properties (from a HEAD, not the listing) and its user metadata. */
export function ObjectDetailsView({ account, container, name }: { account: string; container: string; name: string }) {
  const head = useHead(account, container, name);
  if (head.isPending) return <Loading label={s.loading} />;
  if (head.isError) return <ErrorState error={head.error} onRetry={() => void head.refetch()} />;
  return <Properties account={account} container={container} d={head.data} />;
}

function Properties({ account, container, d }: { account: string; container: string; d: ObjectDetails }) {
  const base = d.name.slice(d.name.lastIndexOf('/', d.name.length - 2) + 1);
  const headers = COMMON_HEADERS.filter((h) => d.headers[h.field]);
  const yesNo = (v: boolean | null) => (v === null ? strings.common.unknown : v ? strings.common.yes : strings.common.no);
  return (
    <div>
      <div className="details-head">
        <Icon name="file" size={28} />
        <p className="details-name" title={d.name}>
          {base}
        </p>
      </div>
      <Preview account={account} container={container} details={d} />
      <Props>
        <Prop label={s.name} mono>
          {d.name}
        </Prop>
        <Prop label={s.size}>
          {formatBytes(d.size)} <span className="muted">({s.bytesExact(formatCount(d.size))})</span>
        </Prop>
        <Prop label={s.contentType} mono>
          {d.contentType}
        </Prop>
        <Prop label={s.modified}>{formatDate(d.lastModified)}</Prop>
        <Prop label={s.etag} mono>
          {d.etag}
        </Prop>
        <Prop label={s.versionId} mono>
          {d.versionId ?? strings.common.none}
        </Prop>
        <Prop label={s.storageClass}>{d.storageClass ?? strings.common.unknown}</Prop>
        <Prop label={s.publicRead}>{yesNo(d.publicRead)}</Prop>
        {d.retention && <Prop label={s.retention}>{s.retentionValue(d.retention.mode, formatDate(d.retention.until))}</Prop>}
        {d.legalHold !== undefined && <Prop label={s.legalHold}>{s.legalHoldValue(d.legalHold)}</Prop>}
        {headers.map((h) => (
          <Prop key={h.field} label={h.name} mono>
            {d.headers[h.field]}
          </Prop>
        ))}
      </Props>
      <SharingActions account={account} container={container} details={d} />
      <MetadataSection key={d.name} account={account} container={container} details={d} />
      <VersionsSection key={`versions:${d.name}`} account={account} container={container} name={d.name} />
    </div>
  );
}

/** One property: its name and its value. */
export function Prop({ label, mono, children }: { label: string; mono?: boolean; children: ReactNode }) {
  return (
    <tr className="prop">
      <th scope="row">{label}</th>
      <td className={mono ? 'mono wrap' : undefined}>{children}</td>
    </tr>
  );
}

/** Properties as a two-column table: each row is named by its property, read as "ETag, 6fba…". */
export function Props({ children }: { children: ReactNode }) {
  return (
    <table className="props" aria-label={s.properties}>
      <tbody>{children}</tbody>
    </table>
  );
}
