import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { fillPlaceholders, hasSecretPlaceholder } from '../../src/mcp/placeholders.js';

/**
 * The fetch a per-user Streamable HTTP server's transport uses: its headers keep their `${user.<secret>}`
 * placeholders until a request is sent, and are filled only when that request goes to the server's own origin
 * (scheme, host and port of its `url`); to any other origin a header holding a placeholder is dropped. A request that
 * carries a value is never redirected by fetch itself (`redirect: 'manual'`), so each hop is decided here again.
 * @example new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: createSecretFetch(url, secrets) })
 */
export function createSecretFetch(serverUrl: URL, secrets: Readonly<Record<string, string>>, baseFetch: FetchLike = fetch): FetchLike {
  const origin = serverUrl.origin;
  return (url, init) => {
    const target = new URL(url);
    const sameOrigin = target.origin === origin;
    const headers = new Headers();
    let filled = false;
    new Headers(init?.headers).forEach((value, name) => {
      if (!hasSecretPlaceholder(value)) headers.set(name, value);
      else if (sameOrigin) {
        headers.set(name, fillPlaceholders(value, secrets));
        filled = true;
      }
    });
    const redirect = filled && (init?.redirect === undefined || init.redirect === 'follow') ? 'manual' : init?.redirect;
    return baseFetch(target, { ...init, headers, ...(redirect === undefined ? {} : { redirect }) });
  };
}
