import type { Engine } from '../../engine/engine.js';
import type { Exchange } from '../common/exchange.js';

export interface CompatContext {
  engine: Engine;
  domain: string | undefined;
}

/** The compatible (S3) API. Until it lands, every request gets S3's NotImplemented error. */
export async function handleCompat(x: Exchange, _ctx: CompatContext): Promise<void> {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NotImplemented</Code>' +
    `<Message>The S3-compatible API is not available yet.</Message><RequestId>${x.id}</RequestId></Error>`;
  x.send(501, { 'Content-Type': 'application/xml', 'x-amz-request-id': x.id }, body);
}
