import { ToolwardenError } from '../errors.js';
import { holdsCredentialReference } from '../net/egress/credential-references.js';
import type { TenantContext } from '../tenants/tenant-config.js';
import type { McpServerConfig } from './server-config.js';

const PLACEHOLDER = /\$\{user\.([A-Za-z0-9_.-]+)\}/g;

/**
 * Whether a string holds a placeholder: `${credential.NAME}` (a session credential) or `${user.<secret>}` (a
 * tenant's secret, the deprecated form).
 */
export function hasSecretPlaceholder(text: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(text) || holdsCredentialReference(text);
}

/**
 * The tenant's secrets that a per-user config's `env` values or `headers` name, by name.
 * @throws ToolwardenError INVALID_OPTIONS naming the server and the missing secret.
 */
export function secretsUsedBy(config: McpServerConfig, tenant: TenantContext, serverId = 'server'): Record<string, string> {
  const field = 'command' in config ? 'env' : 'headers';
  const used: Record<string, string> = {};
  for (const [key, value] of Object.entries(('command' in config ? config.env : config.headers) ?? {})) {
    for (const [, name = ''] of value.matchAll(PLACEHOLDER)) used[name] = secretOf(tenant, name, `mcpServers.${serverId}.${field}.${key}`);
  }
  return used;
}

/** `text` with each `${user.<name>}` placeholder replaced by `secrets[name]`; unknown names stay as they are. */
export function fillPlaceholders(text: string, secrets: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (match, name: string) => (Object.hasOwn(secrets, name) ? (secrets[name] ?? match) : match));
}

/**
 * Fills `${user.<secret>}` placeholders in `env` values and `headers` from the tenant's secrets.
 * `serverId` only names the server in errors.
 * @throws ToolwardenError INVALID_OPTIONS naming the server and the missing secret (never filled with '').
 */
export function fillSecretPlaceholders(config: McpServerConfig, tenant: TenantContext, serverId = 'server'): McpServerConfig {
  const fill = (field: string, values: Record<string, string>): Record<string, string> => {
    const filled: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) {
      filled[key] = value.replace(PLACEHOLDER, (_match, name: string) => secretOf(tenant, name, `mcpServers.${serverId}.${field}.${key}`));
    }
    return filled;
  };
  if ('command' in config) return config.env ? { ...config, env: fill('env', config.env) } : { ...config };
  return config.headers ? { ...config, headers: fill('headers', config.headers) } : { ...config };
}

function secretOf(tenant: TenantContext, name: string, where: string): string {
  const secret = Object.hasOwn(tenant.secrets, name) ? tenant.secrets[name] : undefined;
  if (typeof secret !== 'string') throw new ToolwardenError('INVALID_OPTIONS', `${where} needs secret '${name}', which user '${tenant.user}' does not have`);
  return secret;
}
