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
  private readonly bySocket = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();

  track(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const entry = { req, res };
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
