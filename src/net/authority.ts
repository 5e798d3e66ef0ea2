import { isIPv6 } from 'node:net';

// The one grammar for every place a host and port enter the network code: the egress proxy's CONNECT, absolute-URI
// requests, SOCKS4/4a/5 and Host headers, and web_fetch's URLs. A text either reads as exactly one (host, port), in
// canonical form, or is refused with the reason; nothing is repaired, so the host and port that are checked are the
// ones connected to.

/** A host and port as checked and connected: `host` is a lower-case DNS name, a dotted IPv4 or a bracketed IPv6. */
export interface Authority {
  readonly host: string;
  readonly port: number;
}

/** A parse that failed: `reason` says which rule the text broke, without repeating the text. */
export interface AuthorityRefusal {
  readonly reason: string;
}

/** The longest DNS name (RFC 1035) without its trailing dot. */
export const MAX_HOST_NAME_LENGTH = 253;

const DECIMAL_OCTET = /^(0|[1-9][0-9]{0,2})$/;
const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;
// What URL parsers read as an IPv4 number when it ends a host name (WHATWG "ends in a number").
const NUMERIC_LABEL = /^([0-9]+|0x[0-9a-f]*)$/;
const PORT = /^[1-9][0-9]{0,4}$/;

/**
 * Reads a host: a DNS name (ASCII letters, digits, `-` and `_`, labels of 1 to 63, at most 253 in all, one trailing
 * dot dropped), a dotted-decimal IPv4 address (four octets, no leading zeros), or an IPv6 address in brackets (no
 * zone). Returns the canonical form (lower case; IPv6 compressed) or the rule it breaks.
 * @example parseHost('API.Example.com.') // 'api.example.com'
 * @example parseHost('0x7f.1')           // { reason: 'looks like an IPv4 address but is not in the form a.b.c.d ...' }
 */
export function parseHost(text: string): string | AuthorityRefusal {
  if (text.length === 0) return { reason: 'the host is empty' };
  if (text.startsWith('[')) return parseBracketedIPv6(text);
  const odd = /[^A-Za-z0-9._-]/.exec(text);
  if (odd !== null) return { reason: `the host has ${describeChar(odd[0])}, which no host name or IP address contains` };
  const name = (text.endsWith('.') ? text.slice(0, -1) : text).toLowerCase();
  const labels = name.split('.');
  const last = labels[labels.length - 1] ?? '';
  if (NUMERIC_LABEL.test(last)) {
    if (text.endsWith('.') || labels.length !== 4 || !labels.every((label) => DECIMAL_OCTET.test(label) && Number(label) <= 255)) {
      return { reason: 'the host looks like an IPv4 address but is not in the form a.b.c.d (four decimal numbers 0-255, no leading zeros)' };
    }
    return name;
  }
  if (name.length > MAX_HOST_NAME_LENGTH) return { reason: `the host name is longer than ${MAX_HOST_NAME_LENGTH} characters` };
  if (!labels.every((label) => LABEL.test(label))) {
    return { reason: 'the host name has an empty label, a label longer than 63 characters, or a label starting or ending with "-"' };
  }
  return name;
}

/** Reads a port: decimal 1-65535 without sign or leading zeros. */
export function parsePort(text: string): number | AuthorityRefusal {
  if (!PORT.test(text)) return { reason: 'the port must be a decimal number 1-65535 without sign or leading zeros' };
  const port = Number(text);
  return port <= 65535 ? port : { reason: 'the port is past 65535' };
}

/**
 * Reads `host:port` (IPv6 in brackets); without `:port`, `defaultPort` when given. No userinfo, no path, query or
 * fragment, one port only.
 * @example parseAuthority('127.0.0.1:8080')       // { host: '127.0.0.1', port: 8080 }
 * @example parseAuthority('example.com', 443)     // { host: 'example.com', port: 443 }
 * @example parseAuthority('127.0.0.1/:8080')      // { reason: 'the host has "/", ...' }
 */
export function parseAuthority(text: string, defaultPort?: number): Authority | AuthorityRefusal {
  if (text.includes('@')) return { reason: 'an authority with user information (user@host) is not accepted' };
  const close = text.startsWith('[') ? text.indexOf(']') : -1;
  const colon = close >= 0 ? (text.length > close + 1 ? close + 1 : -1) : text.indexOf(':');
  if (close >= 0 && colon >= 0 && text[colon] !== ':') return { reason: 'the IPv6 address in brackets is followed by something other than :port' };
  const hostText = colon === -1 ? text : text.slice(0, colon);
  const host = parseHost(hostText);
  if (typeof host !== 'string') return host;
  if (colon === -1) return defaultPort === undefined ? { reason: 'the port is missing (host:port)' } : { host, port: defaultPort };
  const port = parsePort(text.slice(colon + 1));
  return typeof port === 'number' ? { host, port } : port;
}

/** A host as text and a port as a number (a SOCKS request) through the same grammar as {@link parseAuthority}. */
export function authorityOf(hostText: string, port: number): Authority | AuthorityRefusal {
  const host = parseHost(hostText);
  if (isRefusal(host)) return host;
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? { host, port } : { reason: 'the port must be 1-65535' };
}

/** Whether a parse failed. */
export function isRefusal<T>(value: T | AuthorityRefusal): value is AuthorityRefusal {
  return typeof value === 'object' && value !== null && 'reason' in value;
}

/** `host:port`, the port left out when it equals `defaultPort` (a Host header). */
export function formatAuthority(authority: Authority, defaultPort?: number): string {
  return authority.port === defaultPort ? authority.host : `${authority.host}:${authority.port}`;
}

/** The address to hand to a socket: an IP literal without brackets. */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function parseBracketedIPv6(text: string): string | AuthorityRefusal {
  const inner = text.endsWith(']') ? text.slice(1, -1) : undefined;
  const refused = { reason: 'the host in brackets is not an IPv6 address (zones and IPvFuture are not accepted)' };
  if (inner === undefined || !/^[0-9A-Fa-f:.]+$/.test(inner) || !isIPv6(inner)) return refused;
  try {
    // RFC 5952 text: lower case, leading zeros dropped, the longest run of zero groups as `::`.
    return new URL(`http://[${inner}]/`).hostname;
  } catch {
    return refused;
  }
}

function describeChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return code > 0x20 && code < 0x7f ? JSON.stringify(char) : `the character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

