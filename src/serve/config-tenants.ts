import path from 'node:path';
import { didYouMean } from '../did-you-mean.js';
import { parseLimits } from '../capability/parse-limits.js';
import type { Limits } from '../limits.js';
import { validatePermissionSpec, type KnownTools, type PermissionSpec } from '../policy/index.js';
import { validateTenantConfig, type TenantConfig } from '../tenants/index.js';
import { BUILTIN_TOOL_NAMES, isBuiltinTool } from '../tools/builtin-schemas.js';
import { invalid, rejectUnknownKeys, requireObject } from './config-shape.js';

/** A tenant as the config file declares it: the runtime's tenant plus what every session of that user gets. */
export interface ServeTenant extends TenantConfig {
  /** Session rules (the second gate) for every session of this user. */
  permissions?: PermissionSpec;
  /** Limits of every session of this user, over the config's `limits` key by key. */
  limits?: Partial<Limits>;
}

/** Shortest bearer token accepted: a guessable token is no authentication. */
export const MIN_TOKEN_LENGTH = 16;

/** The config's fields of a tenant that are the runtime's, not the session's. */
const SESSION_KEYS = ['permissions', 'limits'] as const;
const TENANT_KEYS = ['workspaceRoot', 'readRoots', 'allowOutsideWorkspace', 'tools', 'mcpServers', 'secrets', 'maxSessions', ...SESSION_KEYS];

/**
 * Parses `tenants`: the runtime's tenant fields by its own validator, tools checked against the built-in tools (serve
 * loads no host tools), paths resolved against `baseDir`, session rules against the known tools, limits by name.
 * @throws ToolwardenError INVALID_OPTIONS naming `tenants.<user>.<field>`.
 */
export function parseTenants(value: unknown, serverIds: readonly string[], baseDir: string): Record<string, ServeTenant> {
  if (value === undefined) return {};
  const raw = requireObject(value, 'tenants');
  // fromEntries defines own properties: a user named '__proto__' is a user, never the object's prototype.
  return Object.fromEntries(Object.entries(raw).map(([user, entry]) => [user, parseTenant(user, entry, serverIds, baseDir)]));
}

function parseTenant(user: string, entry: unknown, serverIds: readonly string[], baseDir: string): ServeTenant {
  const where = `tenants.${user}`;
  rejectUnknownKeys(requireObject(entry, where), TENANT_KEYS, where);
  const { permissions, limits, ...rest } = entry as Record<string, unknown>;
  const tenant: ServeTenant = { ...validateTenantConfig(user, rest, serverIds) };
  const unknownTool = tenant.tools?.find((tool) => !isBuiltinTool(tool));
  if (unknownTool !== undefined) throw invalid(`${where}.tools has unknown tool '${unknownTool}'${didYouMean(unknownTool, BUILTIN_TOOL_NAMES)}; known: ${BUILTIN_TOOL_NAMES.join(', ')}`);
  if (tenant.workspaceRoot !== undefined) tenant.workspaceRoot = path.resolve(baseDir, tenant.workspaceRoot);
  if (tenant.readRoots !== undefined) tenant.readRoots = tenant.readRoots.map((root) => path.resolve(baseDir, root));
  if (permissions !== undefined) tenant.permissions = validatePermissionSpec(permissions, `${where}.permissions`, knownTools(serverIds));
  if (limits !== undefined) tenant.limits = parseLimits(limits, `${where}.limits`);
  return tenant;
}

/** The runtime's part of a tenant: what every session of the user is bound to, without what each session gets. */
export function runtimeTenant(tenant: ServeTenant): TenantConfig {
  const { permissions: _rules, limits: _limits, ...bound } = tenant;
  return bound;
}

/** What a config's rules may name: the built-in tools (serve loads no host tools) and the config's MCP servers. */
export function knownTools(serverIds: readonly string[]): KnownTools {
  return { names: BUILTIN_TOOL_NAMES, mcpServerIds: serverIds };
}

/**
 * Parses `tokens`, bearer token to user name: each token long enough, without whitespace, naming a tenant.
 * @throws ToolwardenError INVALID_OPTIONS naming the token by its first characters only.
 */
export function parseTokens(value: unknown, tenants: Record<string, ServeTenant>): Record<string, string> {
  if (value === undefined) return {};
  const raw = requireObject(value, 'tokens');
  for (const [token, user] of Object.entries(raw)) {
    const shown = `tokens["${token.slice(0, 4)}..."]`;
    if (token.length < MIN_TOKEN_LENGTH) throw invalid(`${shown}: a bearer token must be at least ${MIN_TOKEN_LENGTH} characters`);
    if (/\s/.test(token)) throw invalid(`${shown}: a bearer token may not contain whitespace`);
    if (typeof user !== 'string') throw invalid(`${shown} must be a user name (a string)`);
    if (!Object.hasOwn(tenants, user)) throw invalid(`${shown} names user '${user}', who has no entry in tenants${didYouMean(user, Object.keys(tenants))}`);
  }
  return raw as Record<string, string>;
}
