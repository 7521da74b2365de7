import type { z } from 'zod';
import { accountsMethods, type AccountsService } from './accounts.js';
import { browseMethods, type BrowseService } from './browse.js';
import { containersMethods, type ContainersService } from './containers.js';
import { localStoreMethods, type LocalStoreService } from './local-store.js';
import { METHOD_NAMES } from './method-names.js';
import { shellMethods, type ShellService } from './shell.js';
import { transfersMethods, type TransfersService } from './transfers.js';
import { versionsMethods, type VersionsService } from './versions.js';

/** Every service the renderer may reach, as one typed object. */
export interface Services {
  accounts: AccountsService;
  browse: BrowseService;
  containers: ContainersService;
  versions: VersionsService;
  transfers: TransfersService;
  localStore: LocalStoreService;
  shell: ShellService;
}

/**
 * The one allow-list: `service.method` -> the schema its argument must satisfy. The preload
 * refuses any other name; main validates every argument against it before a service runs.
 */
export const SERVICE_METHODS = {
  accounts: accountsMethods,
  browse: browseMethods,
  containers: containersMethods,
  versions: versionsMethods,
  transfers: transfersMethods,
  localStore: localStoreMethods,
  shell: shellMethods,
} satisfies { [S in keyof Services]: Record<keyof Services[S], z.ZodType> };

export type MethodName = {
  [S in keyof Services]: `${S & string}.${keyof Services[S] & string}`;
}[keyof Services];

export { METHOD_NAMES };

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && METHOD_NAMES.includes(name);
}

/** The schema for a method name, or undefined for anything not in the manifest. */
export function schemaOf(name: string): z.ZodType | undefined {
  const [service, method] = name.split('.');
  const methods = (SERVICE_METHODS as Record<string, Record<string, z.ZodType>>)[service ?? ''];
  return methods && Object.hasOwn(methods, method ?? '') ? methods[method!] : undefined;
}
