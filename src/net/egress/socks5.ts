/** A SOCKS5 greeting (RFC 1928 section 3): whether the client offers "no authentication", and its length. */
export interface SocksGreeting {
  readonly length: number;
  readonly noAuthOffered: boolean;
}

/** A SOCKS5 request (RFC 1928 section 4): the command, the destination as the client gave it, and its length. */
export interface SocksRequest {
  readonly length: number;
  /** 1 CONNECT, 2 BIND, 3 UDP ASSOCIATE. */
  readonly command: number;
  /** A host name, an IPv4 address, or an IPv6 address in brackets. */
  readonly host: string;
  readonly port: number;
}

/** A message that is not SOCKS version 5 or uses an unknown address type. */
export type SocksMalformed = { readonly malformed: string };

/** Reply codes (RFC 1928 section 6) the proxy sends. */
export const SOCKS_REPLY = { succeeded: 0, generalFailure: 1, notAllowed: 2, hostUnreachable: 4, commandNotSupported: 7, addressNotSupported: 8 } as const;

/** Parses a greeting from the start of `buf`; undefined while more bytes are needed. */
export function parseSocksGreeting(buf: Uint8Array): SocksGreeting | SocksMalformed | undefined {
  if (buf.length < 2) return undefined;
  if (buf[0] !== 5) return { malformed: `SOCKS version ${buf[0] ?? '?'} is not 5` };
  const count = buf[1] ?? 0;
  if (buf.length < 2 + count) return undefined;
  return { length: 2 + count, noAuthOffered: buf.subarray(2, 2 + count).includes(0) };
}

/** Parses a request from the start of `buf`; undefined while more bytes are needed. */
export function parseSocksRequest(buf: Uint8Array): SocksRequest | SocksMalformed | undefined {
  if (buf.length < 5) return undefined;
  if (buf[0] !== 5) return { malformed: `SOCKS version ${buf[0] ?? '?'} is not 5` };
  const command = buf[1] ?? 0;
  const type = buf[3];
  let host: string;
  let at: number;
  if (type === 1) {
    if (buf.length < 10) return undefined;
    host = Array.from(buf.subarray(4, 8)).join('.');
    at = 8;
  } else if (type === 3) {
    const size = buf[4] ?? 0;
    if (buf.length < 5 + size + 2) return undefined;
    host = Buffer.from(buf.subarray(5, 5 + size)).toString('latin1');
    at = 5 + size;
  } else if (type === 4) {
    if (buf.length < 22) return undefined;
    const groups: string[] = [];
    for (let i = 4; i < 20; i += 2) groups.push((((buf[i] ?? 0) << 8) | (buf[i + 1] ?? 0)).toString(16));
    host = `[${groups.join(':')}]`;
    at = 20;
  } else {
    return { malformed: `SOCKS address type ${type ?? '?'} is unknown` };
  }
  return { length: at + 2, command, host, port: ((buf[at] ?? 0) << 8) | (buf[at + 1] ?? 0) };
}

/** A reply with the given code and an unspecified bound address (0.0.0.0:0). */
export function socksReply(code: number): Uint8Array {
  return Uint8Array.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
}
