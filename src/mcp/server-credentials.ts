import { createHash } from 'node:crypto';
import { ToolwardenError } from '../errors.js';
import type { Credentials, PlacedCredential } from '../net/egress/credentials.js';
import { isHostAllowed, validateNetPermission } from '../net/net-permission.js';
import { defaultPortOf } from '../net/url-authority.js';
import { credentialReference, credentialsNamedIn } from '../net/egress/credential-references.js';
import type { McpHttpServerConfig, McpServerConfig } from './server-config.js';

// An HTTP MCP server's credentials are the session's, under the same rule as commands' and web_fetch's: the value
// goes only in requests to the credential's hosts, and is masked in everything that comes back. A tenant's
// `${user.<secret>}` is the deprecated form of the same thing: a credential whose one host is the server's.

/** The session credentials an HTTP server's headers name as `${credential.NAME}` (none for a stdio server). */
export function credentialsNamedBy(config: McpServerConfig): string[] {
  if ('command' in config) return [];
  return [...new Set(Object.values(config.headers ?? {}).flatMap(credentialsNamedIn))];
}

/**
 * What tells connections apart by the credentials they carry: equal for two sessions whose credentials of these
 * names are the same (value, hosts, places), different otherwise. A digest, so the value is not kept in a key.
 */
export function credentialsFingerprint(credentials: Credentials, names: readonly string[]): string {
  if (names.length === 0) return '';
  const used = [...names].sort().map((name) => [name, Object.hasOwn(credentials, name) ? credentials[name] : null]);
  return createHash('sha256').update(JSON.stringify(used)).digest('hex');
}

/** A server url's host and port as a `net` entry (`api.test:443`). */
export function serverAuthority(url: URL): string {
  const [entry = ''] = validateNetPermission([`${url.hostname}:${url.port === '' ? defaultPortOf(url.protocol) : url.port}`]) || [];
  return entry;
}

/** A tenant's secrets as the credentials they stand for: each sent only to `serverUrl`'s host and port, under `${user.<name>}`. */
export function userSecretCredentials(serverUrl: URL, secrets: Readonly<Record<string, string>>): PlacedCredential[] {
  const hosts = [serverAuthority(serverUrl)];
  return Object.entries(secrets).map(([name, value]) => ({ name, value, hosts, placeholder: `\${user.${name}}` }));
}

/**
 * The credentials a per-user HTTP server's connection fills its headers with and masks in what comes back: the
 * session credentials its headers name (each under its `${credential.NAME}` reference), then the tenant's `secrets`
 * (under `${user.<name>}`, for the server's host and port only).
 * @throws ToolwardenError INVALID_OPTIONS naming the server and the credential (never its value) when the session lacks
 * it, keeps it out of headers (`in`), or the server's url is not one of its hosts.
 */
export function placeServerCredentials(serverId: string, config: McpHttpServerConfig, session: Credentials, secrets: Readonly<Record<string, string>>): PlacedCredential[] {
  const url = new URL(config.url);
  const authority = serverAuthority(url);
  const placed: PlacedCredential[] = [];
  for (const [key, text] of Object.entries(config.headers ?? {})) {
    for (const name of credentialsNamedIn(text)) {
      if (placed.some((c) => c.name === name)) continue;
      const credential = Object.hasOwn(session, name) ? session[name] : undefined;
      if (credential === undefined) throw invalid(`mcpServers.${serverId}.headers.${key} names credential '${name}', which this session does not have`);
      const places = credential.in ?? ['header'];
      if (!places.includes('header')) throw invalid(`mcpServers.${serverId}.headers.${key}: credential '${name}' may not be sent in headers (in: ${places.join(', ')})`);
      const port = url.port === '' ? defaultPortOf(url.protocol) : Number(url.port);
      if (!isHostAllowed(credential.hosts, url.hostname, port)) {
        throw invalid(`mcpServers.${serverId}.url (${authority}) is not one of credential '${name}''s hosts (${credential.hosts.join(', ')}), so its headers cannot carry it`);
      }
      placed.push({ ...credential, name, placeholder: credentialReference(name) });
    }
  }
  return [...placed, ...userSecretCredentials(url, secrets)];
}

function invalid(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_OPTIONS', message);
}
