import { CofferError, COFFER_ERROR_CODES, type CofferErrorCode } from '../errors.js';
import type { EventMap, EventName } from '../contract/events.js';
import type { Services } from '../contract/manifest.js';
import { METHODS_BY_SERVICE } from '../contract/method-names.js';
import type { Transport } from './envelope.js';

export interface Client {
  services: Services;
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void;
}

function toError(data: { code: string; message: string }): CofferError {
  const code = (COFFER_ERROR_CODES as readonly string[]).includes(data.code) ? (data.code as CofferErrorCode) : 'InternalError';
  return new CofferError(code, data.message);
}

/**
 * Turns a transport into the typed services: `client.services.browse.listFolder({...})`. Errors
 * that crossed as data become CofferErrors again, with their code.
 */
export function createClient(transport: Transport): Client {
  const services = {} as Record<string, Record<string, (arg: unknown) => Promise<unknown>>>;
  for (const [service, methods] of Object.entries(METHODS_BY_SERVICE)) {
    const target: Record<string, (arg: unknown) => Promise<unknown>> = {};
    for (const method of methods) {
      target[method] = async (arg: unknown) => {
        const result = await transport.call(`${service}.${method}`, arg ?? {});
        if (!result.ok) throw toError(result.error);
        return result.value;
      };
    }
    services[service] = target;
  }
  return {
    services: services as unknown as Services,
    on: (event, listener) => transport.subscribe(event, listener as (payload: unknown) => void),
  };
}
