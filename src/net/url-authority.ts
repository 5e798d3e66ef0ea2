import { isIP } from 'node:net';
import { isRefusal, parseAuthority, type Authority, type AuthorityRefusal } from './authority.js';

// URLs through the one authority grammar: the proxy's absolute-form request targets (read by hand, never repaired)
// and web_fetch's URLs (read by the URL standard, then held to the same grammar, raw and canonical).

/** The default port of an http: or https: URL. */
export function defaultPortOf(protocol: string): number {
  return protocol === 'https:' ? 443 : 80;
}

/** An absolute-form request target (`http://host:port/path?query`): where it goes and what to send as the path. */
export interface AbsoluteTarget {
  readonly authority: Authority;
  /** `/path?query` exactly as written (`/` when the target had none). */
  readonly path: string;
}

/**
 * Reads a proxy request in absolute form: `http://` (any case), an authority by {@link parseAuthority} (port 80 by
 * default), then nothing, a path from `/` or a query from `?`. A fragment, a backslash or another scheme is refused.
 * @example parseAbsoluteTarget('http://example.com:8080/a?b') // { authority: { host: 'example.com', port: 8080 }, path: '/a?b' }
 */
export function parseAbsoluteTarget(target: string): AbsoluteTarget | AuthorityRefusal {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(target);
  if (scheme === null) return { reason: 'a proxy request needs an absolute http:// URL' };
  if (scheme[1]?.toLowerCase() !== 'http') return { reason: `only http:// URLs are proxied in absolute form; use CONNECT for ${scheme[1] ?? ''}:` };
  if (/[#\\]/.test(target)) return { reason: 'a request target cannot have a fragment (#) or a backslash' };
  const rest = target.slice(scheme[0].length);
  const end = rest.search(/[/?]/);
  const authority = parseAuthority(end === -1 ? rest : rest.slice(0, end), 80);
  if (isRefusal(authority)) return authority;
  const path = end === -1 ? '/' : rest.slice(end);
  return { authority, path: path.startsWith('?') ? `/${path}` : path };
}

/**
 * The authority of a parsed http(s) URL by the strict grammar, and, when `raw` is the text it was parsed from and
 * names an authority itself (`scheme://...` or `//...`), the same authority read from that text: both must agree, so a URL that
 * parsers read two ways, or that relies on a URL parser's repairs (`0x7f.1`, `%31`, `:080`), is refused.
 */
export function authorityOfUrl(url: URL, raw?: string): Authority | AuthorityRefusal {
  const canonical = parseAuthority(url.host, defaultPortOf(url.protocol));
  if (isRefusal(canonical)) return canonical;
  // As the URL standard reads it: C0 controls and spaces trimmed, tabs and newlines dropped; http(s) URLs take a
  // backslash for a slash, and a reference may leave out the scheme (`//host/`).
  const cleaned = raw?.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  const written = cleaned === undefined ? undefined : /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?[/\\]{2}([^/?#\\]*)/.exec(cleaned)?.[1];
  if (written === undefined) return canonical;
  // A name in another script is only ever read by the URL standard (punycode); its canonical form was checked above.
  if (/[^\x21-\x7e]/.test(written)) return isIP(canonical.host.replace(/^\[|\]$/g, '')) === 0 ? canonical : { reason: 'an IP address must be written in ASCII' };
  const direct = parseAuthority(written, defaultPortOf(url.protocol));
  if (isRefusal(direct)) return direct;
  return direct.host === canonical.host && direct.port === canonical.port ? canonical : { reason: 'URL parsers read its host and port differently' };
}
