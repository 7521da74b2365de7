import { EventEmitter } from 'node:events';
import { CofferError, isCofferError } from '../src-shared/errors.js';
import type { EventMap, EventName } from '../src-shared/contract/events.js';
import { schemaOf, type Services } from '../src-shared/contract/manifest.js';
import type { RpcResult, Transport } from '../src-shared/rpc/envelope.js';

/**
 * Dispatches contract calls to the services, against the manifest: an unknown method is refused,
 * every argument is validated (and defaulted) by its schema before a service sees it, and every
 * outcome becomes data (`{ok, value}` or `{ok: false, error: {code, message}}`).
 */
export class RpcHost {
  constructor(
    private readonly services: Services,
    readonly events = new EventEmitter(),
  ) {
    this.events.setMaxListeners(100);
  }

  async call(method: string, arg: unknown): Promise<RpcResult> {
    const schema = schemaOf(method);
    if (!schema) return { ok: false, error: { code: 'InvalidArgument', message: `Unknown method ${String(method)}` } };
    const parsed = schema.safeParse(arg);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      return { ok: false, error: { code: 'InvalidArgument', message: `${method}: ${where}${issue?.message ?? 'invalid argument'}` } };
    }
    const [service, name] = method.split('.') as [keyof Services, string];
    const target = this.services[service] as unknown as Record<string, (a: unknown) => Promise<unknown>>;
    try {
      const value = await target[name]!.call(target, parsed.data);
      return { ok: true, value: value ?? null };
    } catch (err) {
      if (isCofferError(err)) return { ok: false, error: err.toData() };
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, error: new CofferError('InternalError', message).toData() };
    }
  }

  emit<E extends EventName>(event: E, payload: EventMap[E]): void {
    this.events.emit(event, payload);
  }

  /** The host as an in-process transport (tests, and the shape IPC and HTTP transports mirror). */
  asTransport(): Transport {
    return {
      call: (method, arg) => this.call(method, JSON.parse(JSON.stringify(arg ?? {}))).then((r) => JSON.parse(JSON.stringify(r)) as RpcResult),
      subscribe: (event, listener) => {
        this.events.on(event, listener);
        return () => this.events.off(event, listener);
      },
    };
  }
}
