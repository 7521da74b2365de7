// Listing pages through the contract: a caller may ask for pages of up to 10,000 entries, and
// each backend answers up to what it serves in one go (the local store all 10,000, a remote S3
// or Swift account one request's 1,000), with a marker to go on from. The renderer asks for the
// most after the first page; a Swift page must not wait on ten remote requests before it shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src-shared/rpc/client.js';
import { startApp, type ContractEnv } from '../contract/transports.js';

const COUNT = 2500;

describe('listing pages as large as each backend serves well', () => {
  let env: ContractEnv;
  let client: Client;
  const accounts: Record<string, string> = { local: 'local' };
  beforeAll(async () => {
    env = await startApp();
    client = createClient(env.ctx.rpc.asTransport());
    const user = env.ctx.localAccount;
    await env.ctx.engine.createContainer(user.id, 'many');
    const ref = { tenant: user.tenant, container: 'many' };
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < COUNT; i++) writes.push(env.ctx.engine.putObject(ref, `f/${String(i).padStart(4, '0')}`, 'x'));
    await Promise.all(writes);
    const api = client.services;
    accounts.s3 = (await api.accounts.add({ name: 'self over S3', config: { kind: 's3', endpoint: env.ctx.server.url, accessKeyId: user.keys[0]!.accessKey, secretAccessKey: user.keys[0]!.secretKey } })).id;
    accounts.swift = (
      await api.accounts.add({ name: 'self over Swift', config: { kind: 'swift', authUrl: `${env.ctx.server.url}/auth/1.0`, auth: { type: 'v1', user: user.swiftKeys[0]!.user, key: user.swiftKeys[0]!.secretKey } } })
    ).id;
  });
  afterAll(() => env.close());

  async function pages(account: string): Promise<number[]> {
    const sizes: number[] = [];
    let marker: string | undefined;
    do {
      const page = await client.services.browse.listFolder({ account, container: 'many', prefix: 'f/', pageSize: 10_000, ...(marker ? { marker } : {}) });
      sizes.push(page.entries.length);
      marker = page.nextMarker ?? undefined;
    } while (marker);
    return sizes;
  }

  it('answers 10,000 entries whole from the local store, one request of 1,000 per page from remote S3 and Swift', async () => {
    expect(await pages(accounts.local!)).toEqual([COUNT]);
    // The markers reach the end either way.
    expect(await pages(accounts.s3!)).toEqual([1000, 1000, 500]);
    expect(await pages(accounts.swift!)).toEqual([1000, 1000, 500]);
  });
});
