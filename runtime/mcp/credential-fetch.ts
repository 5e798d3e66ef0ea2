import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { substituteHeader, type PlacedCredential } from '../../src/net/egress/credentials.js';
import { defaultPortOf } from '../../src/net/url-authority.js';

/**
 * The fetch a per-user Streamable HTTP server's transport uses: its headers keep their placeholders
 * (`${credential.NAME}`, `${user.<secret>}`) until a request is sent, and each is filled only when that request goes
 * to one of its credential's hosts, by the rule commands and web_fetch follow (src/net/egress/credentials.ts); a
 * header that would still hold a placeholder is not sent at all. A request that carries a value is never redirected
 * by fetch itself (`redirect: 'manual'`), so each hop is decided here again.
 * @example new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: createCredentialFetch(placed) })
 */
export function createCredentialFetch(credentials: readonly PlacedCredential[], baseFetch: FetchLike = fetch): FetchLike {
  const holdsPlaceholder = (text: string): boolean => credentials.some((c) => text.includes(c.placeholder));
  return (url, init) => {
    const target = new URL(url);
    const port = target.port === '' ? defaultPortOf(target.protocol) : Number(target.port);
    const headers = new Headers();
    let filled = false;
    new Headers(init?.headers).forEach((value, name) => {
      const sent = substituteHeader(value, name, credentials, target.hostname, port);
      if (holdsPlaceholder(sent)) return;
      if (sent !== value) filled = true;
      headers.set(name, sent);
    });
    const redirect = filled && (init?.redirect === undefined || init.redirect === 'follow') ? 'manual' : init?.redirect;
    return baseFetch(target, { ...init, headers, ...(redirect === undefined ? {} : { redirect }) });
  };
}
