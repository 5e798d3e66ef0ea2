import { didYouMean } from '../did-you-mean.js';
import { ToolwardenError } from '../errors.js';
import type { TenantContext } from '../tenants/tenant-config.js';
import { credentialsNamedIn, hasMalformedCredentialReference } from '../net/egress/credential-references.js';
import { hasSecretPlaceholder } from './placeholders.js';
import { resolveMcpServerLimits, type McpServerLimits } from './server-limits.js';
import { isValidServerId } from './tool-name.js';

/** A stdio MCP server: a command the broker starts itself. */
export interface McpStdioServerConfig {
  command: string;
  args?: string[];
  /** Added to the SDK's minimal default env (HOME, PATH, ...); the host's other variables are not passed. */
  env?: Record<string, string>;
  cwd?: string;
  /** One connection per user, with `${user.<secret>}` placeholders filled from that user's secrets. @default false */
  perUser?: boolean;
  /** How much the server may send back (pages, tools, schema and result sizes). @default DEFAULT_MCP_SERVER_LIMITS */
  limits?: McpServerLimits;
}

/** A Streamable HTTP MCP server. */
export interface McpHttpServerConfig {
  url: string;
  /**
   * Sent with every request. `${credential.NAME}` names a credential of the calling session (needs `perUser`): it is
   * filled per request, only for a request to one of that credential's hosts. `${user.<secret>}` (deprecated) names a
   * tenant's secret, filled only for the server's own host and port.
   */
  headers?: Record<string, string>;
  /**
   * One connection per user (and per set of the credentials its headers name), with `${credential.NAME}` and
   * `${user.<secret>}` placeholders filled from that session's credentials and that user's secrets. @default false
   */
  perUser?: boolean;
  /** How much the server may send back (pages, tools, schema and result sizes). @default DEFAULT_MCP_SERVER_LIMITS */
  limits?: McpServerLimits;
}

/** How to reach one MCP server. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** The runtime's MCP servers by id; a function config is built per user from the tenant (always per-user). */
export type McpServersOption = Record<string, McpServerConfig | ((tenant: TenantContext) => McpServerConfig)>;

/**
 * Checks the `mcpServers` runtime option.
 * @throws ToolwardenError INVALID_OPTIONS naming the server id and the field at fault.
 */
export function validateMcpServers(value: unknown): McpServersOption {
  if (!isRecord(value)) throw new ToolwardenError('INVALID_OPTIONS', 'mcpServers must be an object mapping server ids to configs');
  for (const [id, config] of Object.entries(value)) {
    if (!isValidServerId(id)) {
      throw new ToolwardenError('INVALID_OPTIONS', `mcpServers id '${id}' must match [A-Za-z0-9_-]+ without '__' or a leading or trailing '_'`);
    }
    if (typeof config !== 'function') validateMcpServerConfig(id, config);
  }
  return value as McpServersOption;
}

/**
 * Checks one server config (also used on what a config function returns).
 * @throws ToolwardenError INVALID_OPTIONS naming the server id and the field at fault.
 */
export function validateMcpServerConfig(id: string, config: unknown): McpServerConfig {
  const fail = (rule: string): never => {
    throw new ToolwardenError('INVALID_OPTIONS', `mcpServers.${id}${rule}`);
  };
  if (!isRecord(config)) return fail(' must be { command, args?, env?, cwd?, limits? }, { url, headers?, limits? } or a function of the tenant');
  const hasCommand = 'command' in config;
  if (hasCommand === 'url' in config) return fail(' must have exactly one of command (stdio) or url (Streamable HTTP)');
  if (config['perUser'] !== undefined && typeof config['perUser'] !== 'boolean') fail('.perUser must be a boolean');
  const allowed = hasCommand ? ['command', 'args', 'env', 'cwd', 'perUser', 'limits'] : ['url', 'headers', 'perUser', 'limits'];
  const extra = Object.keys(config).find((key) => !allowed.includes(key));
  if (extra !== undefined) fail(`.${extra} is not a known field${didYouMean(extra, allowed)} (allowed: ${allowed.join(', ')})`);
  if (hasCommand) {
    if (typeof config['command'] !== 'string' || config['command'] === '') fail('.command must be a non-empty string');
    if (config['args'] !== undefined && !(Array.isArray(config['args']) && config['args'].every((a) => typeof a === 'string'))) {
      fail('.args must be an array of strings');
    }
    if (config['cwd'] !== undefined && typeof config['cwd'] !== 'string') fail('.cwd must be a string');
    checkStringMap(id, 'env', config['env'], config['perUser'] === true);
  } else {
    if (typeof config['url'] !== 'string' || !isHttpUrl(config['url'])) fail('.url must be an http: or https: URL');
    checkStringMap(id, 'headers', config['headers'], config['perUser'] === true);
  }
  resolveMcpServerLimits(id, config['limits']);
  return config as unknown as McpServerConfig;
}

function checkStringMap(id: string, field: 'env' | 'headers', value: unknown, perUser: boolean): void {
  if (value === undefined) return;
  if (!isRecord(value)) throw new ToolwardenError('INVALID_OPTIONS', `mcpServers.${id}.${field} must be an object of strings`);
  for (const [key, item] of Object.entries(value)) {
    const where = `mcpServers.${id}.${field}.${key}`;
    if (typeof item !== 'string') throw new ToolwardenError('INVALID_OPTIONS', `${where} must be a string`);
    if (hasMalformedCredentialReference(item)) {
      throw new ToolwardenError('INVALID_OPTIONS', `${where} has a malformed credential reference: write \${credential.NAME}, NAME an environment variable name`);
    }
    // A stdio server would hold the value itself and could send it anywhere: a credential's hosts could not be kept.
    if (field === 'env' && credentialsNamedIn(item).length > 0) {
      throw new ToolwardenError('INVALID_OPTIONS', `${where} names a credential; credentials go only in an HTTP server's headers, which are filled per request for the credential's hosts`);
    }
    // A shared connection filled with one user's secret would hand that credential to every other user.
    if (!perUser && hasSecretPlaceholder(item)) {
      throw new ToolwardenError('INVALID_OPTIONS', `${where} uses a \${credential.*} or \${user.*} placeholder, which needs perUser: true`);
    }
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
