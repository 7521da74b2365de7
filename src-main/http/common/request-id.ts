import { randomBytes } from 'node:crypto';

/** Request ids in the shape RGW and Swift use: `tx` + 21 hex + `-` + 10 hex of the epoch seconds. */
export function newRequestId(): string {
  const epoch = Math.floor(Date.now() / 1000).toString(16).padStart(10, '0');
  return `tx${randomBytes(11).toString('hex').slice(0, 21)}-${epoch}`;
}
