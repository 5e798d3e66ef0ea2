import type { Duplex } from 'node:stream';
import { parseSocks4Request, SOCKS4_REPLY, socks4Reply } from '../../../src/net/egress/socks4.js';
import { parseSocksGreeting, parseSocksRequest, SOCKS_REPLY, socksReply } from '../../../src/net/egress/socks5.js';

/** The replies a SOCKS client understands, by outcome, in its own version. */
export interface SocksReplies {
  readonly succeeded: Uint8Array;
  readonly notAllowed: Uint8Array;
  readonly hostUnreachable: Uint8Array;
  readonly commandNotSupported: Uint8Array;
}

/** A SOCKS request read off a connection: the destination as the client wrote it, and the bytes that followed. */
export interface SocksRequestRead {
  readonly version: 4 | 5;
  /** 1 is CONNECT, the only command served. */
  readonly command: number;
  readonly host: string;
  readonly port: number;
  readonly rest: Buffer;
  readonly replies: SocksReplies;
}

const V5: SocksReplies = {
  succeeded: socksReply(SOCKS_REPLY.succeeded),
  notAllowed: socksReply(SOCKS_REPLY.notAllowed),
  hostUnreachable: socksReply(SOCKS_REPLY.hostUnreachable),
  commandNotSupported: socksReply(SOCKS_REPLY.commandNotSupported),
};
const V4: SocksReplies = {
  succeeded: socks4Reply(SOCKS4_REPLY.granted),
  notAllowed: socks4Reply(SOCKS4_REPLY.rejected),
  hostUnreachable: socks4Reply(SOCKS4_REPLY.rejected),
  commandNotSupported: socks4Reply(SOCKS4_REPLY.rejected),
};

/**
 * Reads a SOCKS5 greeting (no authentication) and request, or a SOCKS4/4a request, from `socket`, then calls
 * `onRequest` with the socket paused. A malformed message, or a SOCKS5 client that offers no "no authentication", is
 * answered and the socket ended.
 */
export function readSocksRequest(socket: Duplex, version: 4 | 5, onRequest: (request: SocksRequestRead) => void): void {
  let buffered = Buffer.alloc(0);
  let greeted = version === 4;
  const onData = (chunk: Buffer): void => {
    buffered = Buffer.concat([buffered, chunk]);
    if (!greeted) {
      const greeting = parseSocksGreeting(buffered);
      if (greeting === undefined) return;
      if ('malformed' in greeting || !greeting.noAuthOffered) {
        socket.off('data', onData);
        socket.end(Uint8Array.from([5, 0xff]));
        return;
      }
      socket.write(Uint8Array.from([5, 0]));
      buffered = buffered.subarray(greeting.length);
      greeted = true;
    }
    const request = version === 5 ? parseSocksRequest(buffered) : parseSocks4Request(buffered);
    if (request === undefined) return;
    socket.off('data', onData);
    socket.pause();
    const replies = version === 5 ? V5 : V4;
    if ('malformed' in request) {
      socket.end(version === 5 ? socksReply(SOCKS_REPLY.addressNotSupported) : replies.notAllowed);
      return;
    }
    onRequest({ version, command: request.command, host: request.host, port: request.port, rest: buffered.subarray(request.length), replies });
  };
  socket.on('data', onData);
}
