/** A SOCKS4 request, or SOCKS4a when `host` is a name: the command, the destination as the client gave it, its length. */
export interface Socks4Request {
  readonly length: number;
  /** 1 CONNECT, 2 BIND. */
  readonly command: number;
  /** A dotted IPv4 address, or (SOCKS4a, address 0.0.0.x with x > 0) the name the client sent. */
  readonly host: string;
  readonly port: number;
}

/** Reply codes of SOCKS4: granted, and rejected or failed. */
export const SOCKS4_REPLY = { granted: 90, rejected: 91 } as const;

// A user id or a SOCKS4a name longer than this is not a request any client sends.
const MAX_FIELD = 255;

/**
 * Parses a SOCKS4/4a request from the start of `buf` (version 4, command, port, IPv4, NUL-terminated user id, then
 * for 4a a NUL-terminated name); undefined while more bytes are needed, `malformed` past the field limits.
 */
export function parseSocks4Request(buf: Uint8Array): Socks4Request | { readonly malformed: string } | undefined {
  if (buf.length < 9) return undefined;
  if (buf[0] !== 4) return { malformed: `SOCKS version ${buf[0] ?? '?'} is not 4` };
  const userEnd = nulAfter(buf, 8);
  if (userEnd === undefined) return buf.length > 8 + MAX_FIELD ? { malformed: 'SOCKS4 user id is too long' } : undefined;
  const port = ((buf[2] ?? 0) << 8) | (buf[3] ?? 0);
  const ip = Array.from(buf.subarray(4, 8));
  const named = ip[0] === 0 && ip[1] === 0 && ip[2] === 0 && ip[3] !== 0;
  if (!named) return { length: userEnd + 1, command: buf[1] ?? 0, host: ip.join('.'), port };
  const nameEnd = nulAfter(buf, userEnd + 1);
  if (nameEnd === undefined) return buf.length > userEnd + 1 + MAX_FIELD ? { malformed: 'SOCKS4a host name is too long' } : undefined;
  return { length: nameEnd + 1, command: buf[1] ?? 0, host: Buffer.from(buf.subarray(userEnd + 1, nameEnd)).toString('latin1'), port };
}

/** A SOCKS4 reply with the given code and no bound address. */
export function socks4Reply(code: number): Uint8Array {
  return Uint8Array.from([0, code, 0, 0, 0, 0, 0, 0]);
}

function nulAfter(buf: Uint8Array, from: number): number | undefined {
  const at = buf.indexOf(0, from);
  return at === -1 || at - from > MAX_FIELD ? undefined : at;
}
