import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ToolwardenError } from '../../src/errors.js';
import { isPrivateOrLoopback } from '../../src/net/ip-ranges.js';
import { describeNetPermission, isExplicitlyListed, isHostAllowed, type NetPermission } from '../../src/net/net-permission.js';

/** Resolves a host name to its addresses; injectable so tests need no DNS. */
export type HostLookup = (host: string) => Promise<string[]>;

/** The system resolver (getaddrinfo, so /etc/hosts counts), every address in resolver order. */
export const systemLookup: HostLookup = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Checks a URL's host against the permission and returns the address to connect to. A named host's DNS answers
 * must be public unless the host or that address is listed explicitly; an IP literal that is private must be
 * listed itself. Throws NET_DENIED naming the host, the address and the allowlist; messages start with `label`.
 */
export async function resolveVettedAddress(url: URL, net: NetPermission, lookup: HostLookup, signal: AbortSignal, label = 'web_fetch'): Promise<string> {
  const host = url.hostname;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (!isHostAllowed(net, host, port)) {
    throw new ToolwardenError('NET_DENIED', `${label}: ${host}:${port} is not allowed by the net permission (${describeNetPermission(net)})`);
  }
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) {
    if (isPrivateOrLoopback(bare) && !isExplicitlyListed(net, bare, port)) {
      throw new ToolwardenError('NET_DENIED', `${label}: ${host} is a loopback/private address; list "${host}" or "${host}:${port}" explicitly in net to reach it (a wildcard is not enough)`);
    }
    return bare;
  }
  const addresses = await raceAbort(lookup(bare), signal).catch((error: unknown) => {
    if (signal.aborted) throw error;
    throw new ToolwardenError('IO_ERROR', `${label}: cannot resolve ${host}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const explicit = isExplicitlyListed(net, host, port);
  const vetted = addresses.find((address) => explicit || !isPrivateOrLoopback(address) || isExplicitlyListed(net, address, port));
  if (vetted !== undefined) return vetted;
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
