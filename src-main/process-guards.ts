/**
 * A promise rejected with nobody waiting for it is a bug, but not one worth every request in
 * flight and every open connection: it is logged and the process serves on. Requests answer
 * their own failures (a 500 carrying their request id); what reaches this is a promise a handler
 * let float. Thrown exceptions keep Node's default (the process ends: its state is unknown, and
 * every acknowledged write is already on disk).
 */
export function logUnhandledRejections(log: (line: string) => void): void {
  process.on('unhandledRejection', (reason) => {
    log(`${new Date().toISOString()} unhandled rejection (a bug; serving on): ${(reason as Error)?.stack ?? String(reason)}`);
  });
}
