import net, { type AddressInfo, type Server, type Socket } from 'node:net';

// Raw clients of the egress proxy (HTTP CONNECT, absolute-URI requests, SOCKS4/4a/5) and loopback listeners that
// count who reached them, for the authority tests: what matters is which port actually got a connection.

/** A TCP listener on 127.0.0.1 that counts connections and greets each with its own tag. */
export interface TagListener {
  readonly port: number;
  readonly tag: string;
  /** Connections accepted so far. */
  readonly hits: () => number;
  close(): Promise<void>;
}

export async function startTagListener(tag: string): Promise<TagListener> {
  let hits = 0;
  const sockets = new Set<Socket>();
  const server: Server = net.createServer((socket) => {
    hits += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
    socket.write(`${tag}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    tag,
    hits: () => hits,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Sends `request` on a fresh connection to the proxy and collects what comes back until the proxy closes the
 * connection, `until` holds for what came (a tunnel that was opened stays open), or `timeoutMs` pass. No shorter timer
 * decides: on a busy machine a stalled event loop may run a timer before the bytes that already arrived.
 */
export function exchange(socketPath: string, request: Uint8Array | string, until: (answer: Buffer) => boolean = () => false, timeoutMs = 5_000): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const chunks: Buffer[] = [];
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (until(Buffer.concat(chunks))) finish();
    });
    socket.once('close', finish);
    socket.on('error', () => undefined);
    socket.write(request);
  });
}

/** A SOCKS5 greeting (no auth) and a CONNECT to a domain name (address type 3) given as raw bytes. */
export function socks5Domain(name: Uint8Array | string, port: number): Uint8Array {
  const bytes = typeof name === 'string' ? Buffer.from(name, 'latin1') : name;
  return Uint8Array.from([5, 1, 0, 5, 1, 0, 3, bytes.length, ...bytes, port >> 8, port & 0xff]);
}

/** A SOCKS5 greeting and a CONNECT to an IPv4 address (address type 1). */
export function socks5Ipv4(octets: readonly number[], port: number): Uint8Array {
  return Uint8Array.from([5, 1, 0, 5, 1, 0, 1, ...octets, port >> 8, port & 0xff]);
}

/** A SOCKS5 greeting and a CONNECT to an IPv6 address (address type 4), 16 bytes. */
export function socks5Ipv6(bytes: readonly number[], port: number): Uint8Array {
  return Uint8Array.from([5, 1, 0, 5, 1, 0, 4, ...bytes, port >> 8, port & 0xff]);
}

/** The SOCKS5 reply code in an answer to {@link socks5Domain} (after the 2-byte method choice), or -1. */
export function socks5ReplyCode(answer: Buffer): number {
  return answer.length >= 4 ? (answer[3] ?? -1) : -1;
}

/** A SOCKS4 CONNECT to an IPv4 address, or SOCKS4a to a name (`0.0.0.1` then the name), with user id `u`. */
export function socks4(target: readonly number[] | string, port: number): Uint8Array {
  const ip = typeof target === 'string' ? [0, 0, 0, 1] : target;
  const name = typeof target === 'string' ? [...Buffer.from(target, 'latin1'), 0] : [];
  return Uint8Array.from([4, 1, port >> 8, port & 0xff, ...ip, 0x75, 0, ...name]);
}

/** The SOCKS4 reply code (90 granted, 91 refused) in an answer, or -1. */
export function socks4ReplyCode(answer: Buffer): number {
  return answer.length >= 2 ? (answer[1] ?? -1) : -1;
}

/** The status line of an HTTP answer, or '' when none came. */
export function statusLine(answer: Buffer): string {
  const text = answer.toString('latin1');
  return text.startsWith('HTTP/') ? (text.split('\r\n')[0] ?? '') : '';
}
