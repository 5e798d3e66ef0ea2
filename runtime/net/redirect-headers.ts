import { hasSecretPlaceholder } from '../../src/mcp/placeholders.js';

/**
 * Caller headers that survive a cross-origin redirect: they describe what the client accepts and who it is, never
 * who it acts for. Anything else a caller set (an API key under any name, a tracing id, a custom auth scheme) goes.
 */
export const CROSS_ORIGIN_SAFE_HEADERS: readonly string[] = ['accept', 'accept-language', 'user-agent'];
/** Also kept across origins when the redirect resends a body (307, 308): they describe that body. */
export const CROSS_ORIGIN_BODY_HEADERS: readonly string[] = ['content-type', 'content-language'];
/** Dropped whenever a redirect changes scheme, host or port, whatever list they might appear in. */
export const CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'cookie', 'proxy-authorization'];
// What describes a body that a 301/302/303 turned into a GET has dropped.
const BODY_HEADERS: readonly string[] = ['content-type', 'content-language', 'content-encoding', 'content-location'];

/** What a redirect did with the request body: resent it (307, 308), dropped it (a POST turned GET), or there was none. */
export type RedirectBody = 'resent' | 'dropped' | 'none';

/**
 * The headers (lower-case names) to send to the next hop of a redirect. Same origin: all of them, minus the body's
 * description when the body was dropped. Another origin (scheme, host or port changed): only the safe list (with
 * the body's type when the body is resent), and never a credential header or a header whose value names a
 * credential (`${credential.NAME}`, or the deprecated `${user.<secret>}`).
 * @example headersAfterRedirect({ authorization: 'Bearer t', accept: '*\/*' }, from, to, 'none') // { accept: '*\/*' }
 */
export function headersAfterRedirect(headers: Readonly<Record<string, string>>, from: URL, to: URL, body: RedirectBody): Record<string, string> {
  const sameOrigin = from.origin === to.origin;
  const kept = Object.entries(headers).filter(([name, value]) => {
    if (body === 'dropped' && BODY_HEADERS.includes(name)) return false;
    if (sameOrigin) return true;
    if (CREDENTIAL_HEADERS.includes(name) || hasSecretPlaceholder(value)) return false;
    return CROSS_ORIGIN_SAFE_HEADERS.includes(name) || (body === 'resent' && CROSS_ORIGIN_BODY_HEADERS.includes(name));
  });
  return Object.fromEntries(kept);
}
