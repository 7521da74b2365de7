// Share links of the embedded store: presigned S3 GET URLs against the running server, signed
// with the account's own S3 key (the server checks them like any presigned request).
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { CofferError } from '../../src-shared/errors.js';
import type { Engine } from '../engine/index.js';

/** SigV4 presigned URLs live at most seven days. */
export const MAX_LINK_SECONDS = 7 * 24 * 3600;

export function checkLinkLifetime(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_LINK_SECONDS) {
    throw new CofferError('InvalidArgument', `A share link lasts 1 to ${MAX_LINK_SECONDS} seconds`);
  }
}

export class ShareLinkSigner {
  /** A client that only signs, never sends. */
  private readonly client: S3Client;

  constructor(
    private readonly engine: Engine,
    private readonly accountId: string,
    endpoint: string,
    region = 'us-east-1',
  ) {
    this.client = new S3Client({
      endpoint,
      region,
      forcePathStyle: true,
      // Read at signing time: keys may be added or rotated while the app runs.
      credentials: async () => {
        const key = this.firstKey();
        return { accessKeyId: key.accessKey, secretAccessKey: key.secretKey };
      },
    });
  }

  private firstKey() {
    const key = this.engine.getAccount(this.accountId).keys[0];
    if (!key) throw new CofferError('NotSupported', 'Share links need an S3 access key for this account');
    return key;
  }

  link(container: string, name: string, expiresInSeconds: number): Promise<string> {
    this.firstKey();
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: container, Key: name }), { expiresIn: expiresInSeconds });
  }

  close(): void {
    this.client.destroy();
  }
}
