import { isLocalConnection } from '../../../src-shared/model/local-connection';
import type { ContainerSummary } from '../../../src-shared/model/storage';
import { strings } from '../../app/strings';
import { useSetPublic } from '../../queries/use-object-ops';
import { useDetailsFocus } from '../../stores/details-focus';
import { useDialogs } from '../../stores/dialogs';
import { useNavigation } from '../../stores/navigation';
import { Menu, type MenuItem, type MenuPosition } from '../context-menu/Menu';

const s = strings.contextMenu;

/** A container's context menu: open it, make it public (asked first) or private, set its quota (local store), its versioning, its lifecycle rules and tags, delete it. */
export function ContainerMenu({ account, container, at, canChangeAccess, onClose }: { account: string; container: ContainerSummary; at: MenuPosition; canChangeAccess: boolean; onClose: () => void }) {
  const open = useNavigation((n) => n.openContainer);
  const show = useDialogs((d) => d.show);
  const setPublic = useSetPublic(account, container.name);
  const focusDetails = useDetailsFocus((d) => d.request);
  const items: MenuItem[] = [{ id: 'open', label: s.open, onSelect: () => open(container.name) }];
  if (canChangeAccess && container.public !== true) items.push({ id: 'public', label: s.makePublic, onSelect: () => show({ kind: 'make-public', name: container.name }), group: true });
  if (canChangeAccess && container.public !== false) items.push({ id: 'private', label: s.makePrivate, onSelect: () => setPublic.mutate({ on: false }), group: container.public !== null });
  if (isLocalConnection(account)) items.push({ id: 'quota', label: strings.containerQuota.set, onSelect: () => show({ kind: 'container-quota', container }), group: true });
  // Offered everywhere: where the connection keeps no versions, the dialog says why.
  items.push({ id: 'versioning', label: strings.versioning.menu, onSelect: () => show({ kind: 'versioning', name: container.name }), group: !isLocalConnection(account) });
  // The container's own details: opened, with nothing selected, its lifecycle rules and tags in the details panel.
  items.push({ id: 'details', label: strings.containerDetails.menu, onSelect: () => (open(container.name), focusDetails('container')) });
  items.push({ id: 'delete', label: s.delete, onSelect: () => show({ kind: 'delete-container', name: container.name }), danger: true, group: true });
  return <Menu label={s.container(container.name)} at={at} items={items} onClose={onClose} />;
}
