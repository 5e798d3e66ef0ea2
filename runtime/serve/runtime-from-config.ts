import fs from 'node:fs';
import type { JSONWebKeySet } from 'jose';
import type { SandboxMode } from '../../src/capability/capability.js';
import { ToolwardenError } from '../../src/errors.js';
import { parseUpstreamCa } from '../../src/net/upstream-ca.js';
import { runtimeTenant } from '../../src/serve/config-tenants.js';
import type { ServeConfig } from '../../src/serve/serve-config.js';
import type { TenantConfig } from '../../src/tenants/index.js';
import type { RuntimeOptions } from '../runtime-options.js';
import type { SessionOptions } from '../session/session-options.js';

/**
 * Runtime options from a config file: MCP servers, host rules, tenants (without their session rules), sandbox,
 * audit, the public keys capability tokens are verified with and what such tokens may have at most, and the CA files
 * trusted for credential hosts (read and checked now, so a bad file is named).
 */
export function runtimeOptionsFrom(config: ServeConfig | undefined, overrides: { sandbox?: SandboxMode | undefined; idleWorkers?: number } = {}): RuntimeOptions {
  const options: RuntimeOptions = {};
  if (config?.mcpServers !== undefined) options.mcpServers = config.mcpServers;
  if (config?.permissions !== undefined) options.permissions = config.permissions;
  if (config !== undefined && Object.keys(config.tenants).length > 0) {
    options.tenants = Object.fromEntries(Object.entries(config.tenants).map(([user, tenant]): [string, TenantConfig] => [user, runtimeTenant(tenant)]));
  }
  const sandbox = overrides.sandbox ?? config?.sandbox;
  if (sandbox !== undefined) options.sandbox = sandbox;
  if (config?.audit !== undefined) options.audit = { ...config.audit };
  if (overrides.idleWorkers !== undefined) options.idleWorkers = overrides.idleWorkers;
  if (config?.tokenPublicKeys !== undefined) options.tokenKeys = { publicKeys: readPublicKeys(config.tokenPublicKeys) };
  if (config?.tokenBounds !== undefined) options.tokenBounds = config.tokenBounds;
  if (config?.upstreamCa !== undefined) options.upstreamCa = config.upstreamCa.flatMap(readUpstreamCa);
  return options;
}

/** The CA certificates of one `upstreamCa` file, read and checked now so a bad file is named. */
function readUpstreamCa(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ToolwardenError('INVALID_OPTIONS', `upstreamCa: ${file} cannot be read: ${(error as Error).message}`);
  }
  return parseUpstreamCa(text, `upstreamCa (${file})`);
}

/** The JWKS a config names, read now: a serving node verifies with it and holds no private key. */
function readPublicKeys(given: NonNullable<ServeConfig['tokenPublicKeys']>): JSONWebKeySet {
  if (!('file' in given)) return given as JSONWebKeySet;
  try {
    return JSON.parse(fs.readFileSync(given.file, 'utf8')) as JSONWebKeySet;
  } catch (error) {
    throw new ToolwardenError('INVALID_OPTIONS', `tokenPublicKeys: ${given.file} is not a readable JWKS file: ${(error as Error).message}`);
  }
}

/**
 * What a session of `user` (or, without one, a stdio session) takes from the config: the user (the runtime binds the
 * tenant), the tenant's session rules, and the config's limits with the tenant's over them key by key.
 */
export function userSessionOptions(config: ServeConfig | undefined, user: string | undefined): SessionOptions {
  const tenant = user !== undefined && config !== undefined && Object.hasOwn(config.tenants, user) ? config.tenants[user] : undefined;
  const limits = { ...config?.limits, ...tenant?.limits };
  return {
    ...(user === undefined ? {} : { user }),
    ...(tenant?.permissions === undefined ? {} : { permissions: tenant.permissions }),
    ...(Object.keys(limits).length === 0 ? {} : { limits }),
  };
}
