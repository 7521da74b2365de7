/**
 * Coffer as a client, in a process of its own like the command-line tools: the app's main process
 * (createAppContext, compiled to dist/ as `npm start` runs it) with a remote connection to the
 * server under test, moving one folder through the transfer service as the app does (plan, start,
 * wait for every item; a folder download by prefix). The clock starts once the connection is up
 * (the app is running and browsing the folder); the items' ends are seen through the
 * `transfer.progress` events the renderer gets.
 *
 * argv[2]: JSON {connection, container, direction: 'up'|'down', localDir, prefix, dataDir}.
 * Prints one JSON line: seconds, CPU seconds of this process while transferring, its peak RSS
 * (sampled every 50 ms during the transfer), items and how many were verified.
 */
import { performance } from 'node:perf_hooks';
import type { ConnectionConfig } from '../../../src-shared/model/connections.js';
import type { TransferItem } from '../../../src-shared/contract/transfers.js';

type AppContextModule = typeof import('../../../src-main/app-context.js');
type ClientModule = typeof import('../../../src-shared/rpc/client.js');

const args = JSON.parse(process.argv[2]!) as {
  connection: ConnectionConfig;
  container: string;
  direction: 'up' | 'down';
  /** Up: the folder uploaded (its name becomes the prefix). Down: the folder the prefix goes into. */
  localDir: string;
  prefix: string;
  dataDir: string;
};

const dist = new URL('../../../dist/', import.meta.url);
const { createAppContext } = (await import(new URL('src-main/app-context.js', dist).href)) as AppContextModule;
const { createClient } = (await import(new URL('src-shared/rpc/client.js', dist).href)) as ClientModule;

const ctx = await createAppContext({ dataDir: args.dataDir, port: 0 });
try {
  const api = createClient(ctx.rpc.asTransport()).services;
  const { id: account } = await api.accounts.add({ name: 'bench', config: args.connection });
  // The app has the connection open and the folder shown before anything is dropped on it.
  await api.browse.listFolder({ account, container: args.container, prefix: '' });
  if (process.env.BENCH_TRANSFER_COFFER_CONCURRENCY) await api.transfers.setConcurrency({ concurrency: Number(process.env.BENCH_TRANSFER_COFFER_CONCURRENCY) });

  // Only what the end of the run needs, and little of it per item: the renderer's copy of the
  // queue lives in another process in the app and must not count as the main process's memory
  // here. The ids are main's own strings (events pass in-process): a set of them costs its entries.
  const verifiedDone = new Set<string>();
  const unverifiedDone = new Set<string>();
  /** Failed or cancelled: state and error. */
  const notDone = new Map<string, string>();
  const finals = () => verifiedDone.size + unverifiedDone.size + notDone.size;
  let expected = Infinity;
  let finish: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => (finish = resolve));
  const settled = () => finals() >= expected;
  ctx.rpc.events.on('transfer.progress', ({ items }: { items: TransferItem[] }) => {
    for (const { id, state, verified, error } of items) {
      verifiedDone.delete(id);
      unverifiedDone.delete(id);
      notDone.delete(id);
      if (state === 'done') (verified ? verifiedDone : unverifiedDone).add(id);
      else if (state === 'failed' || state === 'cancelled') notDone.set(id, `${state}: ${error}`);
    }
    if (settled()) finish();
  });

  /**
   * Plans and starts the transfer; how many items it has. A function of its own: what the calls
   * answer (an id per file) is let go when it returns, where the suspended frame of this module's
   * body would keep it for the whole run.
   */
  const start = async (): Promise<number> => {
    if (args.direction === 'up') {
      const plan = await api.transfers.planUpload({ account, container: args.container, prefix: '', paths: [args.localDir] });
      return (await api.transfers.startUpload({ batchId: plan.batchId, conflict: 'replace' })).items.length;
    }
    return (await api.transfers.download({ account, container: args.container, prefixes: [args.prefix], folder: args.localDir })).ids.length;
  };

  // rss() alone: memoryUsage() also walks the heap's spaces, about 0.3 ms a call counted as Coffer's CPU.
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  expected = await start();
  if (settled()) finish();
  await allDone;
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());

  if (notDone.size) throw new Error(`${notDone.size} of ${expected} transfers did not finish: ${notDone.values().next().value}`);
  const result = {
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    systemCpuSeconds: cpu.system / 1e6,
    peakRssMiB: peakRss / 2 ** 20,
    items: finals(),
    verified: verifiedDone.size,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await ctx.close();
}
