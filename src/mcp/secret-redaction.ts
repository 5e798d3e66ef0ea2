import { createCredentialMask } from '../net/egress/credential-mask.js';

/** Replaces secrets' values in a value an upstream MCP server sent back; see {@link createSecretMask}. */
export type SecretMask = <T>(value: T) => T;

/**
 * The walk that keeps a tenant's `${user.<name>}` secrets out of everything an MCP server sends back (tool listings,
 * results, errors): the one credential mask (src/net/egress/credential-mask.ts) over every string, object key and
 * number's digits, at any depth, each value in any form it knows (as written, percent-, JSON- or HTML-escaped,
 * base64) replaced by its `${user.<name>}` placeholder. What holds no secret comes back as it was.
 * @example createSecretMask({ token: 't0k3n' })({ 't0k3n': 'bad t0k3n' }) // { '${user.token}': 'bad ${user.token}' }
 */
export function createSecretMask(secrets: Readonly<Record<string, string>>): SecretMask {
  return createCredentialMask(Object.entries(secrets).map(([name, value]) => ({ value, placeholder: `\${user.${name}}` }))).value;
}
