import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ToolwardenError } from '../../src/errors.js';
import { bareHost, formatAuthority, type Authority } from '../../src/net/authority.js';
import { isPrivateOrLoopback } from '../../src/net/ip-ranges.js';
import { describeNetPermission, isExplicitlyListed, matchingNetEntry, type NetPermission } from '../../src/net/net-permission.js';

/** Resolves a host name to its addresses; injectable so tests need no DNS. */
export type HostLookup = (host: string) => Promise<string[]>;

/** The system resolver (getaddrinfo, so /etc/hosts counts), every address in resolver order. */
export const systemLookup: HostLookup = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

declare const vetted: unique symbol;

/**
 * An authority that passed the checks, with the one address to connect to (bare, no brackets) and the `net` entry
 * that allowed it. Only {@link vetAuthority} makes one, so a connection cannot be opened to an unchecked host or port.
 */
export interface VettedTarget {
  readonly authority: Authority;
  readonly address: string;
  readonly rule: string;
  readonly [vetted]: true;
}

/**
 * Checks an authority (as {@link parseAuthority} reads it) against the permission and picks the address to connect
 * to. A named host's DNS answers must be public unless the host or that address is listed explicitly; an IP literal
 * that is private must be listed itself. Throws NET_DENIED naming the host, the address and the allowlist; messages
 * start with `label`.
 */
export async function vetAuthority(authority: Authority, net: NetPermission, lookup: HostLookup, signal: AbortSignal, label = 'web_fetch'): Promise<VettedTarget> {
  const { host, port } = authority;
  const shown = formatAuthority(authority);
  const rule = matchingNetEntry(net, host, port);
  if (rule === undefined) {
    throw new ToolwardenError('NET_DENIED', `${label}: ${shown} is not allowed by the net permission (${describeNetPermission(net)})`);
  }
  const target = (address: string): VettedTarget => ({ authority, address, rule: `net '${rule}'` }) as VettedTarget;
  const bare = bareHost(host);
  if (isIP(bare) !== 0) {
    if (isPrivateOrLoopback(bare) && !isExplicitlyListed(net, bare, port)) {
      throw new ToolwardenError('NET_DENIED', `${label}: ${host} is a loopback/private address; list "${host}" or "${shown}" explicitly in net to reach it (a wildcard is not enough)`);
    }
    return target(bare);
  }
  const addresses = await raceAbort(lookup(bare), signal).catch((error: unknown) => {
    if (signal.aborted) throw error;
    throw new ToolwardenError('IO_ERROR', `${label}: cannot resolve ${host}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const explicit = isExplicitlyListed(net, host, port);
  // Only an address as an IP literal counts: a resolver answering with anything else is not followed.
  const vettedAddress = addresses.find((address) => isIP(address) !== 0 && (explicit || !isPrivateOrLoopback(address) || isExplicitlyListed(net, address, port)));
  if (vettedAddress !== undefined) return target(vettedAddress);
  if (addresses.length === 0) throw new ToolwardenError('IO_ERROR', `${label}: ${host} resolved to no address`);
  throw new ToolwardenError(
    'NET_DENIED',
    `${label}: ${host} resolves to ${addresses.join(', ')}, a loopback/private address; list "${host}" or the address explicitly in net to reach it (a wildcard is not enough)`,
  );
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
