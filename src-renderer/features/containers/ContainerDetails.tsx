import { useRef } from 'react';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { useFocusWhenWanted } from '../details/DetailsPanel';
import { LifecycleSection } from './LifecycleSection';
import { TagsSection } from './TagsSection';
import './container-details.css';

const s = strings.containerDetails;

/** The container itself, in the details panel while nothing in it is selected: its lifecycle rules and its tags. */
export function ContainerDetails({ account, container }: { account: string; container: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusWhenWanted('container', ref);
  return (
    <div className="container-details" aria-label={s.label(container)} role="group" ref={ref} tabIndex={-1}>
      <div className="details-head">
        <Icon name="container" size={28} />
        <div>
          <p className="details-name">{container}</p>
          <p className="muted">{s.kind}</p>
        </div>
      </div>
      <p className="muted">{strings.details.nothing}</p>
      <LifecycleSection account={account} container={container} />
      <TagsSection account={account} container={container} />
    </div>
  );
}
