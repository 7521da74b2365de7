import type { ShellService } from '../../src-shared/contract/shell.js';
import { CofferError } from '../../src-shared/errors.js';

/**
 * What the services need from the desktop shell (native dialogs, dragging files out). The Electron main process
 * passes its implementation; headless `coffer serve` has no windows, so it answers NotSupported
 * and the browser build uses its own file inputs instead.
 */
export type HostShell = ShellService;

const noWindows = async (): Promise<never> => {
  throw new CofferError('NotSupported', 'Native dialogs exist only in the desktop app');
};

const noDrag = async (): Promise<never> => {
  throw new CofferError('NotSupported', 'Dragging files out exists only in the desktop app; the browser build drags download links');
};

export const headlessShell: HostShell = { pickPaths: noWindows, pickSavePath: noWindows, pickFolder: noWindows, startDrag: noDrag };
