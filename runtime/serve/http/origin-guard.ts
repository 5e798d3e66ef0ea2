import net from 'node:net';
import { ToolwardenError } from '../../../src/errors.js';

/** Where the server listens, as the listener reports it once bound. */
export interface BoundAddress {
  address: string;
  port: number;
}

/** The verdict on a request's `Host` and `Origin` headers. */
export type OriginCheck = { ok: true } | { ok: false; message: string };

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Whether an address the listener is bound to reaches only this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/^::ffff:/, '');
  if (bare === 'localhost' || bare === '::1') return true;
  return net.isIPv4(bare) && bare.startsWith('127.');
}

/**
 * Normalizes an allowed origin (`http://app.example:8080`) to the form browsers send: scheme, host and a port
 * only when it is not the scheme's default.
 * @throws ToolwardenError INVALID_OPTIONS naming the entry, for anything but an http(s) origin without path.
 */
export function normalizeOrigin(value: string, name = 'allowedOrigins'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ToolwardenError('INVALID_OPTIONS', `${name} entry '${value}' is not an origin (scheme://host[:port])`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || !/^[a-z]+:\/\/[^/]+\/?$/i.test(value)) {
    throw new ToolwardenError('INVALID_OPTIONS', `${name} entry '${value}' must be an http(s) origin without path, query or credentials, e.g. http://localhost:5173`);
  }
  return url.origin;
}

/**
 * Builds the check of a request's `Host` and `Origin`, the MCP transport's DNS-rebinding protection:
 * - bound to loopback, the `Host` must be a loopback name (`localhost`, `127.0.0.1`, `[::1]` or the bound
 *   address) with the server's port, so a page of `evil.example` resolved to 127.0.0.1 is refused;
 * - an `Origin`, when sent (browsers do; non-browser clients usually not), must be the server's own origin
 *   (those loopback names with its port when bound to loopback, else the bound address) or one of `allowedOrigins`;
 *   `Origin: null` is foreign.
 * Bound to another interface, the `Host` is not checked (the server cannot know the names it is reached by).
 */
export function createOriginGuard(bound: BoundAddress, allowedOrigins: readonly string[] = []): (headers: { host?: string | undefined; origin?: string | undefined }) => OriginCheck {
  const loopback = isLoopbackAddress(bound.address);
  const boundName = net.isIPv6(bound.address) ? `[${bound.address.toLowerCase()}]` : bound.address.toLowerCase();
  const ownNames = loopback ? [...new Set([...LOOPBACK_NAMES, boundName])] : [boundName];
  const origins = new Set([...ownNames.map((name) => new URL(`http://${name}:${bound.port}`).origin), ...allowedOrigins.map((o) => normalizeOrigin(o))]);
  return ({ host, origin }) => {
    if (loopback) {
      const parsed = parseHost(host);
      const portOk = parsed !== undefined && (parsed.port === undefined ? bound.port === 80 : parsed.port === bound.port);
      if (parsed === undefined || !ownNames.includes(parsed.name) || !portOk) {
        return { ok: false, message: `Host header ${host === undefined ? '(none)' : `'${host}'`} is not this loopback server (${ownNames.map((n) => `${n}:${bound.port}`).join(', ')}): refused as a possible DNS rebinding` };
      }
    }
    if (origin !== undefined) {
      let normalized: string | undefined;
      try {
        normalized = origin === 'null' ? undefined : new URL(origin).origin;
      } catch {
        normalized = undefined;
      }
      if (normalized === undefined || !origins.has(normalized)) {
        return { ok: false, message: `Origin '${origin}' is not allowed (allowed: ${[...origins].join(', ')}); add it to allowedOrigins (--allow-origin) to serve that page` };
      }
    }
    return { ok: true };
  };
}

/** `name[:port]` of a Host header, lowercased; undefined for anything else (userinfo, paths, a bad port). */
function parseHost(host: string | undefined): { name: string; port: number | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(host ?? '');
  if (match?.[1] === undefined) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65535) return undefined;
  return { name: match[1].toLowerCase(), port };
}
