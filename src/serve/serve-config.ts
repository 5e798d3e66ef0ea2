import path from 'node:path';
import type { SandboxMode } from '../capability/capability.js';
import { parseLimits } from '../capability/parse-limits.js';
import { parseTokenBounds, type TokenBoundsOption } from '../capability/token-bounds-option.js';
import type { Limits } from '../limits.js';
import { validateMcpServers, type McpServerConfig } from '../mcp/index.js';
import { validatePermissionSpec, type PermissionSpec } from '../policy/index.js';
import { SANDBOX_MODES } from '../sandbox/types.js';
import { invalid, rejectUnknownKeys, requireObject } from './config-shape.js';
import { knownTools, MIN_TOKEN_LENGTH, parseTenants, parseTokens, type ServeTenant } from './config-tenants.js';

export { MIN_TOKEN_LENGTH, type ServeTenant };

/** The JSON-lines audit target of the config file. */
export interface ServeAudit {
  file: string;
  full?: boolean;
  fsync?: boolean;
}

/** A validated `toolwarden serve` / `explain` config file, with paths made absolute. */
export interface ServeConfig {
  mcpServers?: Record<string, McpServerConfig>;
  /** Host rules: the first gate of every call. */
  permissions?: PermissionSpec;
  tenants: Record<string, ServeTenant>;
  /** Bearer token to user name. */
  tokens: Record<string, string>;
  /**
   * Ed25519 public keys of the control plane: a bearer that is a capability token they verify acts for the user it
   * names, within that user's tenant. A JWKS file (absolute path) or a JWKS given inline.
   */
  tokenPublicKeys?: { file: string } | { keys: unknown[] };
  /** What such a capability token may have at most on this node: net, limits, the node's credentials (the runtime option). */
  tokenBounds?: TokenBoundsOption;
  sandbox?: SandboxMode;
  /** Close an MCP session after this long without a request. @default 900000 (15 minutes) */
  idleTimeoutMs: number;
  /** How long a served call that asks waits for the client's answer (elicitation) before it is denied. @default 120000 */
  approvalTimeoutMs: number;
  /** Largest POST body `serve --http` accepts, in bytes (413 past it). @default 16777216 (16 MiB) */
  maxBodyBytes: number;
  /**
   * Limits of every session the node opens for a user or over stdio (a tenant's `limits` override them key by key);
   * unset limits are the defaults. A capability token carries its own, within `tokenBounds.limits`.
   */
  limits?: Partial<Limits>;
  /** How long `serve --http` lets requests in flight finish when it shuts down. @default 10000 */
  shutdownGraceMs?: number;
  audit?: ServeAudit;
  /** The operator's bearer token for `/metrics` (never a user's token). Without it `/metrics` is not served. */
  admin?: { token: string };
  /** The operator's dashboard under `/ui` (needs `admin.token`). Absent: no `/ui`. */
  dashboard?: ServeDashboard;
  /** PEM files (absolute paths) of CAs trusted for credential hosts: the runtime's `upstreamCa`. */
  upstreamCa?: string[];
}

/** The `dashboard` section: the live dashboard and approval inbox of `serve --http`. */
export interface ServeDashboard {
  enabled: boolean;
  /** Audit events the dashboard keeps for its stream (oldest dropped first). @default 500 */
  auditEvents: number;
}

/** Audit events the dashboard keeps when the config sets none. */
export const DEFAULT_DASHBOARD_AUDIT_EVENTS = 500;
/** Most audit events the dashboard may keep: the ring is memory the server holds for every operator. */
export const MAX_DASHBOARD_AUDIT_EVENTS = 10_000;

/** Idle timeout of served HTTP sessions when the config sets none: 15 minutes. */
export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60 * 1000;
/** Body bound of `serve --http` when the config sets none: 16 MiB, room for an 8 MiB `write_file` with JSON escapes. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Grace `serve --http` gives requests in flight at shutdown when the config and the command line set none. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** Longest shutdown grace: an hour, as for an approval's wait. */
export const MAX_SHUTDOWN_GRACE_MS = 3_600_000;

const TOP_KEYS = ['mcpServers', 'permissions', 'tenants', 'tokens', 'tokenPublicKeys', 'tokenBounds', 'sandbox', 'limits', 'idleTimeoutMs', 'maxBodyBytes', 'audit', 'admin', 'approvalTimeoutMs', 'shutdownGraceMs', 'dashboard', 'upstreamCa'];
const AUDIT_KEYS = ['file', 'full', 'fsync'];

/**
 * Validates a parsed config file. Relative paths (tenant workspaces and read roots, the audit file, stdio MCP
 * servers' `cwd`) resolve against `baseDir`, the config file's directory, which is also a stdio server's default cwd.
 * @throws ToolwardenError INVALID_OPTIONS naming the field at fault and what it must be.
 * @example parseServeConfig(JSON.parse(text), path.dirname(file))
 */
export function parseServeConfig(value: unknown, baseDir: string): ServeConfig {
  const raw = requireObject(value, 'the config');
  rejectUnknownKeys(raw, TOP_KEYS, 'the config');
  const mcpServers = raw['mcpServers'] === undefined ? undefined : parseMcpServers(raw['mcpServers'], baseDir);
  const serverIds = Object.keys(mcpServers ?? {});
  const tenants = parseTenants(raw['tenants'], serverIds, baseDir);
  const config: ServeConfig = {
    tenants,
    tokens: parseTokens(raw['tokens'], tenants),
    idleTimeoutMs: parseIdleTimeout(raw['idleTimeoutMs']),
    approvalTimeoutMs: parseApprovalTimeout(raw['approvalTimeoutMs']),
    maxBodyBytes: parseMaxBodyBytes(raw['maxBodyBytes']),
  };
  if (mcpServers !== undefined) config.mcpServers = mcpServers;
  if (raw['permissions'] !== undefined) config.permissions = validatePermissionSpec(raw['permissions'], 'permissions', knownTools(serverIds));
  if (raw['sandbox'] !== undefined) config.sandbox = parseSandbox(raw['sandbox']);
  if (raw['limits'] !== undefined) config.limits = parseLimits(raw['limits'], 'limits');
  if (raw['shutdownGraceMs'] !== undefined) config.shutdownGraceMs = parseShutdownGrace(raw['shutdownGraceMs']);
  if (raw['audit'] !== undefined) config.audit = parseAudit(raw['audit'], baseDir);
  if (raw['tokenPublicKeys'] !== undefined) config.tokenPublicKeys = parseTokenPublicKeys(raw['tokenPublicKeys'], baseDir);
  if (raw['tokenBounds'] !== undefined) {
    parseTokenBounds(raw['tokenBounds'] as TokenBoundsOption);
    config.tokenBounds = raw['tokenBounds'] as TokenBoundsOption;
  }
  if (raw['admin'] !== undefined) config.admin = parseAdmin(raw['admin'], config.tokens);
  if (raw['dashboard'] !== undefined) config.dashboard = parseDashboard(raw['dashboard'], config.admin !== undefined);
  if (raw['upstreamCa'] !== undefined) config.upstreamCa = parseUpstreamCaFiles(raw['upstreamCa'], baseDir);
  return config;
}

/**
 * Checks that a config can serve HTTP: at least one bearer token or public keys for capability tokens, and a
 * workspace for every user a token names.
 * @throws ToolwardenError INVALID_OPTIONS naming the missing field.
 */
export function assertHttpServable(config: ServeConfig): void {
  const users = [...new Set(Object.values(config.tokens))];
  if (users.length === 0 && config.tokenPublicKeys === undefined) {
    throw invalid('tokens must map at least one bearer token to a user, or tokenPublicKeys name the keys of capability tokens, to serve over HTTP');
  }
  for (const user of users) {
    if (config.tenants[user]?.workspaceRoot === undefined) {
      throw invalid(`tenants.${user}.workspaceRoot is required to serve over HTTP: each session of '${user}' opens in it`);
    }
  }
}

function parseMcpServers(value: unknown, baseDir: string): Record<string, McpServerConfig> {
  const servers = validateMcpServers(requireObject(value, 'mcpServers')) as Record<string, McpServerConfig>;
  const resolved: Record<string, McpServerConfig> = {};
  for (const [id, server] of Object.entries(servers)) {
    resolved[id] = 'command' in server ? { ...server, cwd: path.resolve(baseDir, server.cwd ?? '.') } : server;
  }
  return resolved;
}

function parseAdmin(value: unknown, userTokens: Record<string, string>): { token: string } {
  const raw = requireObject(value, 'admin');
  rejectUnknownKeys(raw, ['token'], 'admin');
  const token = raw['token'];
  if (typeof token !== 'string' || token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw invalid(`admin.token must be a string of at least ${MIN_TOKEN_LENGTH} characters without whitespace`);
  }
  if (Object.hasOwn(userTokens, token)) throw invalid("admin.token must differ from every user's bearer token");
  return { token };
}

function parseDashboard(value: unknown, hasAdmin: boolean): ServeDashboard {
  const raw = requireObject(value, 'dashboard');
  rejectUnknownKeys(raw, ['enabled', 'auditEvents'], 'dashboard');
  const enabled = raw['enabled'];
  if (typeof enabled !== 'boolean') throw invalid(`dashboard.enabled must be a boolean, got ${JSON.stringify(enabled)}`);
  if (enabled && !hasAdmin) throw invalid('dashboard.enabled needs "admin": { "token": ... }: the dashboard is for the admin token only, never a user\'s');
  const auditEvents = raw['auditEvents'] ?? DEFAULT_DASHBOARD_AUDIT_EVENTS;
  if (typeof auditEvents !== 'number' || !Number.isInteger(auditEvents) || auditEvents < 1 || auditEvents > MAX_DASHBOARD_AUDIT_EVENTS) {
    throw invalid(`dashboard.auditEvents must be a whole number from 1 to ${MAX_DASHBOARD_AUDIT_EVENTS}, got ${JSON.stringify(auditEvents)}`);
  }
  return { enabled, auditEvents };
}

function parseUpstreamCaFiles(value: unknown, baseDir: string): string[] {
  const files = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(files) || files.length === 0 || !files.every((file) => typeof file === 'string' && file !== '')) {
    throw invalid('upstreamCa must be the path of a PEM file or a list of paths (CA certificates trusted for credential hosts)');
  }
  return files.map((file: string) => path.resolve(baseDir, file));
}

function parseTokenPublicKeys(value: unknown, baseDir: string): { file: string } | { keys: unknown[] } {
  if (typeof value === 'string' && value.length > 0) return { file: path.resolve(baseDir, value) };
  const keys = typeof value === 'object' && value !== null ? (value as { keys?: unknown }).keys : undefined;
  if (Array.isArray(keys) && keys.length > 0) return { keys };
  throw invalid('tokenPublicKeys must be the path of a JWKS file or a JWKS { "keys": [...] } with at least one key');
}

/** Wait for a served approval when the config sets none: 2 minutes. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

function parseApprovalTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_APPROVAL_TIMEOUT_MS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 3_600_000) {
    throw invalid('approvalTimeoutMs must be a whole number of milliseconds from 1 to 3600000');
  }
  return value;
}

function parseShutdownGrace(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SHUTDOWN_GRACE_MS) {
    throw invalid(`shutdownGraceMs must be a whole number of milliseconds from 0 to ${MAX_SHUTDOWN_GRACE_MS}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function parseIdleTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_IDLE_TIMEOUT_MS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw invalid(`idleTimeoutMs must be a positive integer (milliseconds), got ${JSON.stringify(value)}`);
  }
  return value;
}

function parseMaxBodyBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_BODY_BYTES;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1024) {
    throw invalid(`maxBodyBytes must be an integer of at least 1024 (bytes), got ${JSON.stringify(value)}`);
  }
  return value;
}

function parseSandbox(value: unknown): SandboxMode {
  if (typeof value !== 'string' || !(SANDBOX_MODES as readonly string[]).includes(value)) {
    throw invalid(`sandbox must be one of 'auto', 'required', 'off', got ${JSON.stringify(value)}`);
  }
  return value as SandboxMode;
}

function parseAudit(value: unknown, baseDir: string): ServeAudit {
  const raw = requireObject(value, 'audit');
  rejectUnknownKeys(raw, AUDIT_KEYS, 'audit');
  const file = raw['file'];
  if (typeof file !== 'string' || file === '') throw invalid('audit.file must be a non-empty path string (JSON lines are appended to it)');
  const audit: ServeAudit = { file: path.resolve(baseDir, file) };
  for (const flag of ['full', 'fsync'] as const) {
    const setting = raw[flag];
    if (setting === undefined) continue;
    if (typeof setting !== 'boolean') throw invalid(`audit.${flag} must be a boolean, got ${JSON.stringify(setting)}`);
    audit[flag] = setting;
  }
  return audit;
}
