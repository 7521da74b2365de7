import { spawn } from 'node:child_process';

/**
 * Opens `url` in the default browser (`open`, `start`, `xdg-open`), or says why not. Never fails:
 * a missing opener or browser leaves the printed link to the user. `BROWSER=none` turns it off,
 * and on Linux without a display nothing is tried (xdg-open would start a text browser on this
 * terminal).
 */
export function openInBrowser(url: string): string | undefined {
  if (process.env.BROWSER === 'none') return 'BROWSER=none: open the link yourself';
  const linux = process.platform !== 'darwin' && process.platform !== 'win32';
  if (linux && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return 'no display to open a browser on: open the link yourself';
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true, windowsHide: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    return `could not run ${command}: open the link yourself`;
  }
  return undefined;
}
