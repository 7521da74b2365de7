import { useEffect, useRef, type RefObject } from 'react';
import { formatBytes, formatCount } from '../../app/format';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { useDetailsFocus, type DetailsSection } from '../../stores/details-focus';
import type { Row } from '../browser/rows';
import { ContainerDetails } from '../containers/ContainerDetails';
import { VersionRowDetails } from '../versions/VersionRowDetails';
import { ObjectDetailsView, Prop, Props } from './ObjectDetailsView';

const s = strings.details;

/** What the selection is: nothing, one folder, one object (all its properties), or several. */
export function DetailsPanel({ account, container, rows }: { account: string; container: string; rows: readonly Row[] }) {
  const ref = useRef<HTMLElement>(null);
  useFocusWhenWanted('properties', ref);
  return (
    <aside className="details" aria-label={s.title} ref={ref} tabIndex={-1}>
      <h2 className="details-title">{s.title}</h2>
      <Body account={account} container={container} rows={rows} />
    </aside>
  );
}

function Body({ account, container, rows }: { account: string; container: string; rows: readonly Row[] }) {
  const [only] = rows;
  // Nothing selected: the container itself (its lifecycle rules and tags), as a file manager shows the folder.
  if (!only) return <ContainerDetails account={account} container={container} />;
  if (rows.length === 1 && only.kind === 'object') return <ObjectDetailsView account={account} container={container} name={only.key} />;
  if (rows.length === 1 && only.kind === 'version') return <VersionRowDetails account={account} container={container} row={only} />;
  if (rows.length === 1) {
    return (
      <div className="details-head">
        <Icon name="folder" size={28} />
        <div>
          <p className="details-name">{only.label}</p>
          <p className="muted">
            {s.folder} · {only.key}
          </p>
        </div>
      </div>
    );
  }
  const objects = rows.filter((r) => r.kind === 'object');
  const folders = rows.filter((r) => r.kind === 'folder').length;
  const total = objects.reduce((sum, r) => sum + (r.size ?? 0), 0);
  return (
    <div>
      <p className="details-name">{s.many(formatCount(rows.length))}</p>
      <Props>
        <Prop label={s.totalSize}>{formatBytes(total)}</Prop>
      </Props>
      {folders > 0 ? <p className="muted">{s.foldersIncluded(formatCount(folders))}</p> : null}
    </div>
  );
}

/** Moves the focus to `ref` once the context menu asked for this section and it is on screen. */
export function useFocusWhenWanted(section: DetailsSection, ref: RefObject<HTMLElement | null>) {
  const wanted = useDetailsFocus((d) => d.wanted);
  const done = useDetailsFocus((d) => d.done);
  useEffect(() => {
    if (wanted !== section || !ref.current) return;
    ref.current.focus();
    ref.current.scrollIntoView?.({ block: 'nearest' });
    done();
  });
}
