import { CofferError } from '../../../src-shared/errors.js';
import { actsAsOwner, objectGrantsOf, type AccountAction, type ContainerInfo, type Identity } from '../../engine/index.js';
import type { Exchange } from '../common/exchange.js';
import { execute, type Protocol, type Resolved } from '../common/executor.js';
import { authenticateV1, verifyToken } from './auth.js';
import { NativeError } from './errors.js';
import * as account from './handlers/account.js';
import { bulkDelete } from './handlers/bulk.js';
import { extractArchive, sendArchiveRefusal } from './handlers/bulk-upload.js';
import { formPost } from './handlers/formpost.js';
import * as container from './handlers/container.js';
import { copyObject } from './handlers/copy.js';
import { info } from './handlers/info.js';
import * as object from './handlers/object.js';
import * as slo from './handlers/slo.js';
import * as versions from './handlers/versions.js';
import { webContainer, webObject, webRefusal } from './handlers/staticweb.js';
import { putSymlink } from './handlers/symlink.js';
import { tempUrlHeaders, tempUrlInvalid, verifyTempUrl, type Grant } from './handlers/tempurl.js';
import { answerCorsOn, preflight } from './handlers/cors.js';
import { accessOf, type NativeOperation, type NativeOpName, type NativeOpOf } from './operation.js';
import { parseNative } from './parse.js';
import { reach, refusal } from './reach.js';
import { realmOfUser, reply, sendError, type NativeCall, type NativeContext } from './respond.js';

export type { NativeContext } from './respond.js';

function storageUrl(host: string | undefined, accountId: string): string {
  return `http://${host ?? '127.0.0.1'}/v1/AUTH_${accountId}`;
}

/** v1 auth as Swift's tempauth answers it: 200 with the storage URL and a token, 401 naming the user's account as realm. */
function v1Auth(call: NativeCall<NativeOpOf<'Auth'>>): void {
  const { x, ctx, op } = call;
  const r = authenticateV1(ctx.engine, ctx.secret, op.user, op.key);
  // tempauth's realms: the user's account, except for a wrong key or a user without an account part.
  if (!r.ok) throw new NativeError(r.status, null, { 'Www-Authenticate': `Swift realm="${r.wrongKey || !op.user?.includes(':') ? 'unknown' : realmOfUser(op.user)}"` });
  reply(x, 200, {
    'X-Storage-Url': storageUrl(op.host, r.account),
    'X-Auth-Token': r.token,
    'X-Storage-Token': r.token,
    'X-Auth-Token-Expires': Math.max(0, r.expires - Math.floor(Date.now() / 1000)),
  });
}

type Handler<N extends NativeOpName> = (call: NativeCall<NativeOpOf<N>>, c: ContainerInfo) => unknown;

/** Every operation and its handler (the container, when the operation has one, reached and granted). Exhaustive by type. */
const HANDLERS: { [N in NativeOpName]: Handler<N> } = {
  Auth: v1Auth,
  Info: info,
  TempUrlInvalid: () => {
    throw tempUrlInvalid();
  },
  Preflight: preflight,
  MethodNotAllowed: (call) => {
    throw new NativeError(405, null, { Allow: call.op.allow });
  },
  HeadAccount: account.headAccount,
  ListAccount: account.listAccount,
  PostAccount: account.postAccount,
  BulkDelete: bulkDelete,
  ExtractArchive: extractArchive,
  FormPost: formPost,
  PutContainer: container.putContainer,
  // Swift's staticweb first: it answers only reads of a container set up as a web site.
  HeadContainer: async (call, c) => (await webContainer(call, c)) || container.headContainer(call, c),
  ListContainer: async (call, c) => (await webContainer(call, c)) || container.listContainer(call, c),
  ListVersions: versions.listVersions,
  PostContainer: container.postContainer,
  DeleteContainer: container.deleteContainer,
  GetObject: async (call, c) => (await webObject(call, c)) || object.getObject(call, c),
  HeadObject: async (call, c) => (await webObject(call, c)) || object.getObject(call, c),
  GetManifest: slo.getManifest,
  PutObject: object.putObject,
  PutManifest: slo.putManifest,
  PutSymlink: putSymlink,
  PostObject: object.postObject,
  DeleteObject: object.deleteObject,
  DeleteManifest: slo.deleteManifest,
  RestoreVersion: versions.restoreVersion,
  CopyObject: copyObject,
};

interface Caller {
  who: Identity;
  /** A verified TempURL's grant: the request acts as its signing account, on this one object. */
  grant: Grant | undefined;
}

/** Who is asking: a TempURL acting as its signing account, a token's account, or nobody. */
function authenticate(x: Exchange, ctx: NativeContext, op: NativeOperation): Caller {
  if (accessOf(op) === 'none') return { who: {}, grant: undefined };
  if ('tempUrl' in op && op.tempUrl) {
    const grant = verifyTempUrl(ctx, x.method, x.rawPath, op.path, op.tempUrl);
    if (!grant) throw tempUrlInvalid();
    return { who: { account: op.path.account }, grant };
  }
  const token = x.header('x-auth-token') ?? x.header('x-storage-token');
  if (!token) return { who: {}, grant: undefined };
  const signedIn = verifyToken(ctx.engine, ctx.secret, token);
  if (!signedIn) throw new NativeError(401);
  return { who: signedIn, grant: undefined };
}

/**
 * The account and container an operation acts on, and its access question. Refused before
 * anything about a name is told: only the account itself learns that it, or one of its
 * containers, is missing.
 */
function resolve(ctx: NativeContext, op: NativeOperation, { who, grant }: Caller): Resolved<ContainerInfo | undefined> {
  const access = accessOf(op);
  if (access === 'none' || !('path' in op) || !op.path) return { target: undefined, question: undefined };
  const path = op.path;
  // A TempURL acts within its signing account, which the signature has shown to exist.
  if (!grant && !ctx.engine.hasAccount(path.account)) {
    if (who.account === undefined) throw new CofferError('AuthFailed');
    throw who.account === path.account ? new NativeError(404) : new CofferError('AccessDenied');
  }
  const accountAcl = () => ctx.engine.accountAcl(path.account);
  if (access === 'account') return { target: undefined, question: { who, account: path.account, action: accountAction(op), accountAcl } };
  if (access === 'signed-in') return { target: undefined, question: { who, signedIn: true } };
  if (access === 'each-end' || !('container' in path)) return { target: undefined, question: undefined };
  const c = reach(ctx, who, path.account, path.container);
  const objectGrants = access === 'read-object' && 'object' in path ? objectGrantsOf(ctx.engine, c, path.object) : undefined;
  return { target: c, question: { who, container: c, action: access, through: path.account, objectGrants, accountAcl, facts: 'object' in path ? { key: path.object } : undefined } };
}

/** What an account-level operation does, as an account ACL's roles are told apart (tempauth: read-write may create containers; only admin changes the account). */
function accountAction(op: NativeOperation): AccountAction {
  if (op.name === 'HeadAccount' || op.name === 'ListAccount') return 'read';
  return op.name === 'PutContainer' ? 'create-container' : 'update';
}

const protocols = new WeakMap<NativeContext, Protocol<NativeOperation, Caller, ContainerInfo | undefined>>();

/** The native API's side of the shared executor, built once per context. */
function protocol(ctx: NativeContext): Protocol<NativeOperation, Caller, ContainerInfo | undefined> {
  let p = protocols.get(ctx);
  if (p) return p;
  p = {
    parse: (x) => parseNative({ method: x.method, rawPath: x.rawPath, query: x.query, headers: x.req.headers }),
    authenticate: (x, op) => authenticate(x, ctx, op),
    resolve: (op, caller, x) => {
      answerCorsOn(x, ctx, op);
      return resolve(ctx, op, caller);
    },
    refusal: ({ who }) => refusal(who),
    run: (x, op, { who, grant }, c) => {
      const account = 'path' in op && op.path ? op.path.account : '';
      const owner = actsAsOwner(who, account, () => ctx.engine.accountAcl(account));
      const call: NativeCall = { x, ctx, who, account, owner, op, adjust: grant ? tempUrlHeaders(grant, (op as NativeOpOf<'GetObject'>).path.object) : undefined, tempUrlReach: grant?.reach };
      return (HANDLERS[op.name] as Handler<NativeOpName>)(call as never, c!) as Promise<void>;
    },
    // Swift's bulk middleware answers every refusal of an extraction in its 200 report; a web
    // site's refused reader may get its error page instead (Swift's staticweb).
    renderError: async (x, op, err) => {
      if (op?.name === 'ExtractArchive' && sendArchiveRefusal(x, op, err)) return;
      if (!op || !(await webRefusal(x, ctx, op, err))) sendError(x, err);
    },
  };
  protocols.set(ctx, p);
  return p;
}

/** Entry point of the native API: parse, authenticate, decide, run, render, through the shared executor. */
export async function handleNative(x: Exchange, ctx: NativeContext): Promise<void> {
  await execute(x, protocol(ctx));
}
