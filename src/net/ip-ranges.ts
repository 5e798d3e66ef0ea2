import { isIPv4, isIPv6 } from 'node:net';

// [first octet/prefix as a 32-bit network, prefix length]: loopback, private, link-local, CGNAT, "this network",
// IETF protocol assignments, benchmarking, multicast and reserved (incl. broadcast).
const IPV4_BLOCKED: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

/**
 * Whether an address must not be reached through a host name that was not listed explicitly: IPv4 127/8, 10/8,
 * 172.16/12, 192.168/16, 169.254/16, 100.64/10, 0/8, multicast and reserved; IPv6 ::, ::1, fc00::/7, fe80::/10,
 * fec0::/10, ff00::/8; and IPv4 addresses embedded in IPv6 (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::/96, 2002::/16).
 * Anything that is not an IP address counts as private (fail closed).
 */
export function isPrivateOrLoopback(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(bare)) return isBlockedIPv4(ipv4ToNumber(bare));
  if (!isIPv6(bare)) return true;
  const bytes = parseIPv6(bare);
  if (bytes === undefined) return true;
  const embedded = embeddedIPv4(bytes);
  if (embedded !== undefined) return isBlockedIPv4(embedded);
  const [b0 = 0, b1 = 0] = bytes;
  if (bytes.every((b, i) => b === 0 || (i === 15 && b === 1))) return true; // :: and ::1
  if ((b0 & 0xfe) === 0xfc) return true; // fc00::/7 unique local
  if (b0 === 0xfe && (b1 & 0xc0) === 0x80) return true; // fe80::/10 link-local
  if (b0 === 0xfe && (b1 & 0xc0) === 0xc0) return true; // fec0::/10 site-local
  return b0 === 0xff; // multicast
}

function isBlockedIPv4(value: number): boolean {
  return IPV4_BLOCKED.some(([network, prefix]) => {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    return ((value & mask) >>> 0) === ipv4ToNumber(network);
  });
}

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

function embeddedIPv4(bytes: readonly number[]): number | undefined {
  const at = (offset: number): number => (((bytes[offset] ?? 0) << 24) | ((bytes[offset + 1] ?? 0) << 16) | ((bytes[offset + 2] ?? 0) << 8) | (bytes[offset + 3] ?? 0)) >>> 0;
  const zeros = (from: number, to: number): boolean => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return at(12); // ::ffff:a.b.c.d mapped
  if (zeros(0, 12) && !zeros(12, 15)) return at(12); // ::a.b.c.d compatible (not :: or ::1)
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return at(12); // NAT64
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return at(2); // 6to4
  return undefined;
}

function parseIPv6(ip: string): number[] | undefined {
  let text = ip.replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1] !== undefined) {
    const n = ipv4ToNumber(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  return groups.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}
