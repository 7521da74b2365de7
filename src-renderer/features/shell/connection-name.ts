import type { ConnectionInfo } from '../../../src-shared/model/connections';
import { strings } from '../../app/strings';

/** The local store's name is the app's own (translated); remote ones are what the user typed. */
export function connectionName(c: Pick<ConnectionInfo, 'kind' | 'name'>): string {
  return c.kind === 'local' ? strings.shell.localStoreName : c.name;
}
