import { randomBytes } from 'node:crypto';

/** Random bytes drawn in bulk: one randomBytes call per request cost more than the id is worth. */
const POOL_IDS = 512;
let pool = Buffer.alloc(0);
let used = POOL_IDS;

function nextRandomHex(): string {
  if (used >= POOL_IDS) {
    pool = randomBytes(11 * POOL_IDS);
    used = 0;
  }
  const start = 11 * used++;
  return pool.toString('hex', start, start + 11).slice(0, 21);
}

/** Request ids in the shape RGW and Swift use: `tx` + 21 hex + `-` + 10 hex of the epoch seconds. */
export function newRequestId(): string {
  const epoch = Math.floor(Date.now() / 1000).toString(16).padStart(10, '0');
  return `tx${nextRandomHex()}-${epoch}`;
}
