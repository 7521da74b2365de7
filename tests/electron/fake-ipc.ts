// Stand-ins for Electron's ipcMain, ipcRenderer and a window, wired the way Electron wires them:
// invoke() reaches the handler registered under its channel with an event naming the sender,
// and webContents.send() reaches the renderer's listeners. No Electron binary is needed.
import { EventEmitter } from 'node:events';
import type { Services } from '../../src-shared/contract/manifest.js';
import type { CallEvent } from '../../src-main/electron/ipc-bridge.js';
import { RpcHost } from '../../src-main/rpc-host.js';

type Handler = (event: CallEvent, ...args: unknown[]) => unknown;

export class FakeIpcMain {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, handler: Handler): void {
    // Electron refuses a second handler on a channel.
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What Electron does when a renderer invokes `channel`: the handler's answer, or Electron's own error when none is registered. */
  async invoke(event: unknown, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    // IPC copies values by structured clone, both ways.
    return structuredClone(await handler(event as CallEvent, ...structuredClone(args)));
  }
}

export class FakeIpcRenderer extends EventEmitter {
  readonly invoked: unknown[][] = [];
  constructor(private readonly onInvoke: (channel: string, ...args: unknown[]) => Promise<unknown> = async () => undefined) {
    super();
  }
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push([channel, ...args]);
    return this.onInvoke(channel, ...args);
  }
}

/** A window whose webContents delivers `send` to a renderer's ipcRenderer listeners. */
export function fakeWindow(renderer?: FakeIpcRenderer) {
  const sent: unknown[][] = [];
  const webContents = {
    send(channel: string, ...args: unknown[]) {
      sent.push([channel, ...args]);
      renderer?.emit(channel, { sender: 'main' }, ...structuredClone(args));
    },
  };
  return { webContents, sent };
}

/** A real contract host over services that answer, throw a CofferError, or throw anything else. */
export function hostWith(services: Record<string, Record<string, (a: unknown) => Promise<unknown>>>): RpcHost {
  return new RpcHost(services as unknown as Services);
}
