import { createClient } from '../../src-shared/rpc/client';
import { pickTransport } from './transport';

/** The app's one client of the contract; no other renderer code knows which transport it uses. */
export const client = createClient(pickTransport());
export const api = client.services;
