import { ToolwardenError } from '../errors.js';
import type { TenantContext } from '../tenants/tenant-config.js';
import type { McpServerConfig } from './server-config.js';

const PLACEHOLDER = /\$\{user\.([A-Za-z0-9_.-]+)\}/g;

/** Whether a string holds a `${user.<secret>}` placeholder. */
export function hasSecretPlaceholder(text: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(text);
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
      filled[key] = value.replace(PLACEHOLDER, (_match, name: string) => {
        const secret = Object.hasOwn(tenant.secrets, name) ? tenant.secrets[name] : undefined;
        if (typeof secret !== 'string') {
          throw new ToolwardenError('INVALID_OPTIONS', `mcpServers.${serverId}.${field}.${key} needs secret '${name}', which user '${tenant.user}' does not have`);
        }
        return secret;
      });
    }
    return filled;
  };
  if ('command' in config) return config.env ? { ...config, env: fill('env', config.env) } : { ...config };
  return config.headers ? { ...config, headers: fill('headers', config.headers) } : { ...config };
}
