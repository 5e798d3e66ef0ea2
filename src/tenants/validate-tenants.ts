import { ToolwardenError } from '../errors.js';
import { parseMcpEntries } from '../mcp/entries.js';
import type { TenantConfig, TenantsOption } from './tenant-config.js';

const STRING_LISTS = ['mcpServers', 'tools', 'readRoots'] as const;
const KNOWN_FIELDS = new Set<string>([...STRING_LISTS, 'secrets', 'workspaceRoot', 'maxSessions', 'allowOutsideWorkspace']);

/**
 * Checks the `tenants` runtime option; each tenant's MCP entries must name configured servers.
 * A function is accepted as is (its results are checked by {@link validateTenantConfig} when used).
 * @throws ToolwardenError INVALID_OPTIONS naming the user and the field.
 */
export function validateTenants(value: unknown, configuredServers: readonly string[]): TenantsOption {
  if (typeof value === 'function') return value as TenantsOption;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolwardenError('INVALID_OPTIONS', 'tenants must be an object mapping user names to tenant configs, or a function of the user');
  }
  for (const [user, tenant] of Object.entries(value)) validateTenantConfig(user, tenant, configuredServers);
  return value as TenantsOption;
}

/**
 * Checks one tenant config.
 * @throws ToolwardenError INVALID_OPTIONS naming the user and the field.
 */
export function validateTenantConfig(user: string, tenant: unknown, configuredServers: readonly string[]): TenantConfig {
  const fail = (rule: string): never => {
    throw new ToolwardenError('INVALID_OPTIONS', `tenants.${user}${rule}`);
  };
  if (typeof tenant !== 'object' || tenant === null || Array.isArray(tenant)) return fail(' must be an object');
  const t = tenant as Record<string, unknown>;
  for (const field of Object.keys(t)) {
    if (!KNOWN_FIELDS.has(field)) fail(`.${field} is not a tenant field; use ${[...KNOWN_FIELDS].join(', ')}`);
  }
  for (const field of STRING_LISTS) {
    const list = t[field];
    if (list !== undefined && !(Array.isArray(list) && list.every((item) => typeof item === 'string'))) fail(`.${field} must be an array of strings`);
  }
  if (t['mcpServers'] !== undefined) {
    try {
      parseMcpEntries(t['mcpServers'], configuredServers);
    } catch (error) {
      fail(`.mcpServers: ${(error as Error).message}`);
    }
  }
  const secrets = t['secrets'];
  if (secrets !== undefined) {
    if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) fail('.secrets must be an object of strings');
    for (const [name, secret] of Object.entries(secrets as object)) {
      if (typeof secret !== 'string') fail(`.secrets.${name} must be a string`);
    }
  }
  if (t['workspaceRoot'] !== undefined && typeof t['workspaceRoot'] !== 'string') fail('.workspaceRoot must be a string');
  if (t['allowOutsideWorkspace'] !== undefined && typeof t['allowOutsideWorkspace'] !== 'boolean') fail('.allowOutsideWorkspace must be a boolean');
  const max = t['maxSessions'];
  if (max !== undefined && !(typeof max === 'number' && Number.isInteger(max) && max > 0)) fail('.maxSessions must be a positive integer');
  return tenant as TenantConfig;
}
