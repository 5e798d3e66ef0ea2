import { isIPv4, isIPv6 } from 'node:net';
import { ToolwardenError } from '../errors.js';

/**
 * A session's network permission, like Deno's `--allow-net`: `false` (no network) or a list of entries:
 * `'*'` (every host), `'host'`, `'host:port'`, `'*.domain'` (any subdomain, not the domain itself),
 * IPv4 `'10.0.0.5'`, IPv6 `'[::1]'` or `'::1'`, each optionally with `:port` (`'[::1]:8080'`).
 */
export type NetPermission = false | readonly string[];

/** One parsed entry of a {@link NetPermission}; `host` is canonical (lower case, punycode, IPv6 in brackets). */
export interface NetRule {
  readonly host: string;
  readonly kind: 'any' | 'subdomains' | 'exact';
  readonly port: number | undefined;
}

const FORBIDDEN_HOST_CHARS = /[/\\?#@\s%]/;
const HOSTNAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/** Checks a session's `net` option and returns it canonicalized; throws INVALID_OPTIONS naming the bad entry. */
export function validateNetPermission(value: unknown): NetPermission {
  if (value === false) return false;
  if (!Array.isArray(value)) {
    throw new ToolwardenError('INVALID_OPTIONS', `net must be false or an array of host entries (use ['*'] for every host), got ${JSON.stringify(value)}`);
  }
  const entries = value.map((entry: unknown) => formatNetRule(parseNetRule(entry)));
  return [...new Set(entries)];
}

/** Parses one permission entry; throws INVALID_OPTIONS naming the entry and the accepted forms. */
export function parseNetRule(entry: unknown): NetRule {
  const fail = (why: string): never => {
    throw new ToolwardenError('INVALID_OPTIONS', `net entry ${JSON.stringify(entry)} ${why}; use 'host', 'host:port', '*.domain', an IP, '[v6]:port' or '*'`);
  };
  if (typeof entry !== 'string' || entry.length === 0) return fail('is not a non-empty string');
  if (entry === '*') return { host: '*', kind: 'any', port: undefined };
  let hostPart = entry;
  let portPart: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(entry);
  if (bracketed) [hostPart, portPart] = [`[${bracketed[1] ?? ''}]`, bracketed[2]];
  else if (isIPv6(entry)) hostPart = `[${entry}]`;
  else {
    const colon = entry.lastIndexOf(':');
    if (colon >= 0) [hostPart, portPart] = [entry.slice(0, colon), entry.slice(colon + 1)];
  }
  const port = portPart === undefined ? undefined : parsePort(portPart);
  if (port === null) return fail('has an invalid port (1-65535)');
  if (hostPart === '*') return { host: '*', kind: 'any', port };
  const subdomains = hostPart.startsWith('*.');
  const host = canonicalizeHost(subdomains ? hostPart.slice(2) : hostPart);
  if (host === undefined) return fail('is not a valid host name or IP address');
  if (subdomains && (host.startsWith('[') || isIPv4(host))) return fail('puts a wildcard on an IP address');
  return { host, kind: subdomains ? 'subdomains' : 'exact', port };
}

/**
 * Canonical form of a host as URLs give it: lower case, punycode, IPv4 dotted, IPv6 compressed in brackets,
 * no trailing dot. Undefined when it is not a valid host.
 */
export function canonicalizeHost(host: string): string | undefined {
  if (host.length === 0 || FORBIDDEN_HOST_CHARS.test(host)) return undefined;
  if (!host.startsWith('[') && !isIPv6(host) && host.includes(':')) return undefined;
  const bare = host.startsWith('[') ? host : isIPv6(host) ? `[${host}]` : host.replace(/\.$/, '');
  let canonical: string;
  try {
    canonical = new URL(`http://${bare}/`).hostname;
  } catch {
    return undefined;
  }
  return canonical.startsWith('[') || HOSTNAME.test(canonical) ? canonical : undefined;
}

/** Whether the permission allows connecting to host:port (host as a URL gives it, or a bare IP). */
export function isHostAllowed(perm: NetPermission, host: string, port: number): boolean {
  return matchingNetEntry(perm, host, port) !== undefined;
}

/** The first entry of the permission that allows host:port (for audit logs), or undefined when none does. */
export function matchingNetEntry(perm: NetPermission, host: string, port: number): string | undefined {
  if (perm === false) return undefined;
  const canonical = canonicalizeHost(host);
  if (canonical === undefined) return undefined;
  return perm.find((entry) => matchesRule(parseNetRule(entry), canonical, port));
}

/**
 * Whether host:port is named by an exact entry (not `'*'` or `'*.domain'`): only such entries let a host reach
 * loopback and private addresses.
 */
export function isExplicitlyListed(perm: NetPermission, host: string, port: number): boolean {
  if (perm === false) return false;
  const canonical = canonicalizeHost(host);
  return perm.some((entry) => {
    const rule = parseNetRule(entry);
    return rule.kind === 'exact' && matchesRule(rule, canonical ?? '', port);
  });
}

/** Whether the permission allows every host on every port (`'*'`): the only case where commands share the host network. */
export function allowsAllHosts(perm: NetPermission): boolean {
  return perm !== false && perm.includes('*');
}

/** A short description for error messages: the list, or that the network is off. */
export function describeNetPermission(perm: NetPermission): string {
  return perm === false || perm.length === 0 ? 'the session has no network permission (net: false)' : `allowed: ${perm.join(', ')}`;
}

function matchesRule(rule: NetRule, host: string, port: number): boolean {
  if (rule.port !== undefined && rule.port !== port) return false;
  if (rule.kind === 'any') return true;
  if (rule.kind === 'subdomains') return host.endsWith(`.${rule.host}`);
  return host === rule.host;
}

function formatNetRule(rule: NetRule): string {
  const host = rule.kind === 'subdomains' ? `*.${rule.host}` : rule.host;
  return rule.port === undefined ? host : `${host}:${rule.port}`;
}

function parsePort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}
