import { randomBytes } from 'node:crypto';
import { CofferError } from '../../../src-shared/errors.js';
import { formatAccountId, isValidSubuser, isValidTenant, MAX_ACCOUNT_NAME_BYTES, parseAccountId } from '../../../src-shared/names.js';
import type { EngineContext } from '../context.js';
import { MAX_KEY_BYTES } from '../index/keys.js';
import { bytesOver, couldBeAccount } from './name-limits.js';
import { accountUsageKey, readUsage } from './usage.js';
import { UNLIMITED, type AccessKey, type AccountInfo, type AccountRecord, type Quota, type SwiftKey } from '../types.js';

const s3Cred = (accessKey: string) => `s3:${accessKey}`;
const swiftCred = (user: string) => `swift:${user}`;
/** AWS's longest access key id; the credentials table's keys must fit the index. */
const MAX_ACCESS_KEY_LENGTH = 128;

function newAccessKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...randomBytes(20)].map((b) => alphabet[b % alphabet.length]).join('');
}
const newSecret = () => randomBytes(30).toString('base64').replace(/[+/=]/g, '').slice(0, 40);

export interface CreateAccountInput {
  id: string;
  displayName?: string;
  keys?: Partial<AccessKey>[];
  swiftKeys?: { sub: string; secretKey?: string }[];
  quota?: Quota;
}

/** An account record by id; an id past the limit names none (and would not fit the index). */
export function findAccountRecord(ctx: EngineContext, id: string): AccountRecord | undefined {
  return couldBeAccount(id) ? ctx.store.getShared(ctx.store.accounts, id) : undefined;
}

export function requireAccount(ctx: EngineContext, id: string): AccountRecord {
  const rec = findAccountRecord(ctx, id);
  if (!rec) throw new CofferError('NoSuchAccount', `Account ${id} does not exist`);
  return rec;
}

export function accountInfo(ctx: EngineContext, rec: AccountRecord): AccountInfo {
  const u = readUsage(ctx.store, accountUsageKey(rec.id));
  return {
    ...rec,
    usage: { objects: u.objects, bytes: u.bytes, bytesActual: u.bytesActual, containers: u.containers ?? 0 },
  };
}

function parsedId(id: string) {
  const parsed = parseAccountId(id);
  if (!parsed) {
    const tenant = id.includes('$') ? id.slice(0, id.indexOf('$')) : '';
    if (!isValidTenant(tenant)) throw new CofferError('InvalidTenantName', `Invalid tenant name "${tenant}"`);
    throw new CofferError('InvalidAccountName', `Invalid account id "${id}"`);
  }
  return parsed;
}

function swiftKeyFor(accountId: string, sub: string, secretKey?: string): SwiftKey {
  if (!isValidSubuser(sub) || Buffer.byteLength(sub) > MAX_ACCOUNT_NAME_BYTES) throw new CofferError('InvalidArgument', `Invalid sub-user "${sub}"`);
  return { user: `${accountId}:${sub}`, secretKey: secretKey || newSecret() };
}

function assertFree(ctx: EngineContext, keys: AccessKey[], swiftKeys: SwiftKey[]): void {
  for (const k of keys) {
    if (k.accessKey.length > MAX_ACCESS_KEY_LENGTH) throw new CofferError('InvalidArgument', `Access keys are at most ${MAX_ACCESS_KEY_LENGTH} characters`);
    if (ctx.store.credentials.get(s3Cred(k.accessKey)) !== undefined) {
      throw new CofferError('AccessKeyInUse', `Access key ${k.accessKey} is already in use`);
    }
  }
  for (const k of swiftKeys) {
    if (ctx.store.credentials.get(swiftCred(k.user)) !== undefined) {
      throw new CofferError('AccessKeyInUse', `Swift user ${k.user} already exists`);
    }
  }
}

function indexCredentials(ctx: EngineContext, id: string, keys: AccessKey[], swiftKeys: SwiftKey[]): void {
  for (const k of keys) ctx.store.credentials.putSync(s3Cred(k.accessKey), id);
  for (const k of swiftKeys) ctx.store.credentials.putSync(swiftCred(k.user), id);
}

export async function createAccount(ctx: EngineContext, input: CreateAccountInput): Promise<AccountInfo> {
  const { tenant, name } = parsedId(input.id);
  const id = formatAccountId({ tenant, name });
  const keys = (input.keys ?? [{}]).map((k) => ({ accessKey: k.accessKey || newAccessKey(), secretKey: k.secretKey || newSecret() }));
  const swiftKeys = (input.swiftKeys ?? []).map((k) => swiftKeyFor(id, k.sub, k.secretKey));
  const rec: AccountRecord = {
    id,
    tenant,
    name,
    displayName: input.displayName ?? name,
    created: Date.now(),
    meta: {},
    quota: input.quota ?? { ...UNLIMITED },
    keys,
    swiftKeys,
    maxContainers: ctx.options.maxContainersPerAccount,
  };
  await ctx.store.write(() => {
    if (ctx.store.accounts.get(id)) throw new CofferError('AccountExists', `Account ${id} already exists`);
    assertFree(ctx, keys, swiftKeys);
    ctx.store.accounts.putSync(id, rec);
    indexCredentials(ctx, id, keys, swiftKeys);
  });
  return accountInfo(ctx, rec);
}

export function listAccounts(ctx: EngineContext): AccountInfo[] {
  return [...ctx.store.accounts.getRange({})].map(({ value }) => accountInfo(ctx, value));
}

/** Changes an account record atomically; `change` returns the new record (or throws). */
export async function updateAccount(
  ctx: EngineContext,
  id: string,
  change: (rec: AccountRecord) => AccountRecord,
): Promise<AccountInfo> {
  const rec = await ctx.store.write(() => {
    const before = requireAccount(ctx, id);
    const after = change(structuredClone(before));
    const added = {
      keys: after.keys.filter((k) => !before.keys.some((b) => b.accessKey === k.accessKey)),
      swift: after.swiftKeys.filter((k) => !before.swiftKeys.some((b) => b.user === k.user)),
    };
    assertFree(ctx, added.keys, added.swift);
    for (const k of before.keys) if (!after.keys.some((a) => a.accessKey === k.accessKey)) ctx.store.credentials.removeSync(s3Cred(k.accessKey));
    for (const k of before.swiftKeys) if (!after.swiftKeys.some((a) => a.user === k.user)) ctx.store.credentials.removeSync(swiftCred(k.user));
    indexCredentials(ctx, id, added.keys, added.swift);
    ctx.store.accounts.putSync(id, after);
    return after;
  });
  return accountInfo(ctx, rec);
}

export function addAccessKey(ctx: EngineContext, id: string, key: Partial<AccessKey> = {}) {
  const k = { accessKey: key.accessKey || newAccessKey(), secretKey: key.secretKey || newSecret() };
  return updateAccount(ctx, id, (rec) => ({ ...rec, keys: [...rec.keys, k] }));
}

export function addSwiftKey(ctx: EngineContext, id: string, sub: string, secretKey?: string) {
  return updateAccount(ctx, id, (rec) => {
    const k = swiftKeyFor(id, sub, secretKey);
    return { ...rec, swiftKeys: [...rec.swiftKeys.filter((s) => s.user !== k.user), k] };
  });
}

export function removeKey(ctx: EngineContext, id: string, accessKeyOrSwiftUser: string) {
  return updateAccount(ctx, id, (rec) => ({
    ...rec,
    keys: rec.keys.filter((k) => k.accessKey !== accessKeyOrSwiftUser),
    swiftKeys: rec.swiftKeys.filter((k) => k.user !== accessKeyOrSwiftUser),
  }));
}

export function findByAccessKey(ctx: EngineContext, accessKey: string): { account: AccountRecord; secretKey: string } | null {
  return findCredential(ctx, s3Cred(accessKey), (a) => a.keys.find((k) => k.accessKey === accessKey));
}

export function findBySwiftUser(ctx: EngineContext, user: string): { account: AccountRecord; secretKey: string } | null {
  return findCredential(ctx, swiftCred(user), (a) => a.swiftKeys.find((k) => k.user === user));
}

/**
 * The account holding a credential, and its secret. Which account held it last time is kept as a
 * hint, so a request reads the account record alone (one index read, not two). The hint needs no
 * invalidation, not even for changes made by another process: an account record and the
 * credentials table change in the same transaction, so an account that still lists the
 * credential is the one holding it; when it does not, the table decides.
 */
function findCredential(ctx: EngineContext, credential: string, keyIn: (a: AccountRecord) => { secretKey: string } | undefined) {
  // From a request header: one too long for a key was never stored.
  if (bytesOver(credential, MAX_KEY_BYTES - 1) !== undefined) return null;
  const hinted = ctx.credentialHints.get(credential);
  const hintedAccount = hinted === undefined ? undefined : ctx.store.getShared(ctx.store.accounts, hinted);
  const hintedKey = hintedAccount && keyIn(hintedAccount);
  if (hintedKey) return { account: hintedAccount!, secretKey: hintedKey.secretKey };
  const id = ctx.store.credentials.get(credential);
  const account = id === undefined ? undefined : ctx.store.getShared(ctx.store.accounts, id);
  const key = account && keyIn(account);
  if (!account || !key) {
    ctx.credentialHints.delete(credential);
    return null;
  }
  if (ctx.credentialHints.size >= 10_000) ctx.credentialHints.clear();
  ctx.credentialHints.set(credential, id!);
  return { account, secretKey: key.secretKey };
}

/** Deletes an account that owns no containers. */
export async function deleteAccount(ctx: EngineContext, id: string): Promise<void> {
  await ctx.store.write(() => {
    const rec = requireAccount(ctx, id);
    if ((readUsage(ctx.store, accountUsageKey(id)).containers ?? 0) > 0) {
      throw new CofferError('AccountNotEmpty', `Account ${id} still owns containers`);
    }
    for (const k of rec.keys) ctx.store.credentials.removeSync(s3Cred(k.accessKey));
    for (const k of rec.swiftKeys) ctx.store.credentials.removeSync(swiftCred(k.user));
    ctx.store.accounts.removeSync(id);
    ctx.store.setUsage(accountUsageKey(id), undefined);
  });
}
