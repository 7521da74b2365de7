import { decide, type AccessQuestion, type Identity } from '../../engine/index.js';
import type { Exchange } from './exchange.js';

/** Where an operation acts once its caller is known: the target a handler needs, and the access question, when there is one. */
export interface Resolved<Target> {
  target: Target;
  /** Undefined: the operation acts on the caller's own account alone (or asks no one's permission, as a sign-in). */
  question: AccessQuestion | undefined;
}

/**
 * What a protocol supplies to the executor (RGW's `get_params` / `execute` / `send_response`):
 * its parser, its authenticator, how an operation names its account and container, its
 * handlers, and its one way of rendering an error.
 */
export interface Protocol<Op extends { invalid?: Error | undefined }, Caller extends { who: Identity }, Target> {
  parse(x: Exchange): Op;
  authenticate(x: Exchange, op: Op): Caller;
  /** `x` for what an access question reads of the request itself (a bucket policy's condition keys). */
  resolve(op: Op, caller: Caller, x: Exchange): Resolved<Target>;
  /** The error a refused caller gets (S3: AccessDenied; native: 401 to anonymous, else 403). */
  refusal(caller: Caller): Error;
  /** The one engine call, and the answer rendered from its result. */
  run(x: Exchange, op: Op, caller: Caller, target: Target): Promise<void> | void;
  /** Renders an error through the protocol's one table; `op` is undefined when parsing failed. */
  renderError(x: Exchange, op: Op | undefined, err: unknown): void | Promise<void>;
}

/**
 * Every request of both APIs: parse -> authenticate -> resolve the account and container -> one
 * access decision -> the handler. A parameter that failed to parse is raised only after the
 * decision, so a refused caller learns nothing about the request but the refusal, and nothing
 * about what exists.
 */
export async function execute<Op extends { invalid?: Error | undefined }, Caller extends { who: Identity }, Target>(
  x: Exchange,
  protocol: Protocol<Op, Caller, Target>,
): Promise<void> {
  let op: Op | undefined;
  try {
    op = protocol.parse(x);
    const caller = protocol.authenticate(x, op);
    const { target, question } = protocol.resolve(op, caller, x);
    if (question && !decide(question)) throw protocol.refusal(caller);
    if (op.invalid) throw op.invalid;
    await protocol.run(x, op, caller, target);
  } catch (err) {
    await protocol.renderError(x, op, err);
  }
}
