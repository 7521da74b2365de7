import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { hasBody } from './slow-bodies.js';

/**
 * `Expect: 100-continue`, decided on the request head: the 100 goes out when something first
 * reads the body, so a request refused on its head (401, 403, a missing container, a failed
 * precondition) never has its body streamed in. A final answer sent without the 100 closes the
 * connection: the client may or may not send the body it announced, and what follows on the
 * connection could be either. A request that announces no body needs no 100.
 */
export function continueWhenRead(req: IncomingMessage, res: ServerResponse): void {
  if (!hasBody(req)) return;
  res.setHeader('Connection', 'close');
  const read = req._read;
  req._read = function (size: number) {
    req._read = read;
    if (!res.headersSent) {
      res.removeHeader('Connection');
      res.writeContinue();
    }
    read.call(this, size);
  };
}

/**
 * The request each connection is still working on. When the bytes after a request's body are
 * not a request (a body longer than its Content-Length, say), Node's parser fails while that
 * request, complete, is still being handled: its answer must still go out, as its write may have
 * landed, and only then does the connection close.
 */
export class InFlight {
  private readonly bySocket = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse; onCutShort?: () => void }>();

  track(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const entry: { req: IncomingMessage; res: ServerResponse; onCutShort?: () => void } = { req, res };
    this.bySocket.set(socket, entry);
    res.once('close', () => {
      if (this.bySocket.get(socket) === entry) this.bySocket.delete(socket);
    });
  }

  /**
   * True when a complete request is still being answered on `socket`: the connection then closes
   * once the answer is sent. A request whose own body was cut short (or a connection that failed)
   * is not: the caller drops the connection, and the handler sees its body fail.
   */
  closeAfterPending(socket: Socket): boolean {
    const pending = this.bySocket.get(socket);
    if (!pending || pending.res.writableFinished || !pending.req.complete) return false;
    if (!pending.res.headersSent) pending.res.setHeader('Connection', 'close');
    pending.res.once('close', () => socket.end());
    return true;
  }

  /** How `req` is answered when its client ends the connection before the body it announced is complete. */
  whenCutShort(req: IncomingMessage, answer: () => void): void {
    const pending = this.bySocket.get(req.socket);
    if (pending?.req === req) pending.onCutShort = answer;
  }

  /**
   * The client half-closed its connection while `socket`'s request body was still incomplete
   * (fewer bytes than its Content-Length, or chunked framing cut off). Node's parser fails on the
   * early end, but the connection can still carry an answer: the request's own API gives it
   * (S3's IncompleteBody, Swift's 499), then the connection closes and the handler, still reading
   * the body, fails and keeps nothing of it. False when there is no such request to answer.
   */
  answerCutShort(socket: Socket): boolean {
    const pending = this.bySocket.get(socket);
    if (!pending?.onCutShort || pending.req.complete || pending.res.headersSent || !socket.writable) return false;
    pending.onCutShort();
    return true;
  }

  /** A response is part-way out on `socket`: an error answer of its own would corrupt it. */
  answering(socket: Socket): boolean {
    const pending = this.bySocket.get(socket);
    return !!pending && pending.res.headersSent && !pending.res.writableFinished;
  }
}

/** The client is gone (its socket closed or detached): there is nobody to answer. */
export function clientGone(req: IncomingMessage, res: ServerResponse): boolean {
  return res.destroyed || !req.socket || req.socket.destroyed;
}
