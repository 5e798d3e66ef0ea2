import { ToolwardenError } from '../errors.js';

/** What one user may ever have; every session of that user is bound to it. */
export interface TenantConfig {
  /** MCP entries the user may ask for (`'gh'`, `'gh:create_issue'`, `'gh:list_*'`); also the default list. @default [] */
  mcpServers?: string[];
  /** Built-in tools the user may ask for; also the default list. Unset means no tenant restriction. */
  tools?: string[];
  /** Values for `${user.<name>}` placeholders of per-user MCP servers. */
  secrets?: Record<string, string>;
  /** The user's workspace: a session opens here by default and may only narrow it to a directory inside. */
  workspaceRoot?: string;
  /** Concurrent sessions of this user. Unset means no per-user limit. */
  maxSessions?: number;
  /** Read-only roots: the default for a session, which may only ask for these or directories inside them (or inside the workspace). */
  readRoots?: string[];
  /** Whether a session of this user may ask for `allowOutsideWorkspace: true`. @default false */
  allowOutsideWorkspace?: boolean;
}

/** Tenants by user name, or a function from a user name to the tenant (`undefined` for an unknown user). */
export type TenantsOption = Record<string, TenantConfig> | ((user: string) => TenantConfig | undefined);

/** What a per-user MCP server config function receives. */
export interface TenantContext {
  user: string;
  secrets: Readonly<Record<string, string>>;
}

/**
 * The tenant a session of `user` is bound to: `undefined` when no tenants are configured or the session
 * has no user (such sessions are bound only by the runtime's own configuration).
 * @throws ToolwardenError ESCALATION for a user the tenants do not know.
 */
export function resolveTenant(tenants: TenantsOption | undefined, user: string | undefined): TenantConfig | undefined {
  if (tenants === undefined || user === undefined) return undefined;
  const tenant = typeof tenants === 'function' ? tenants(user) : Object.hasOwn(tenants, user) ? tenants[user] : undefined;
  if (tenant === undefined) throw new ToolwardenError('ESCALATION', `unknown user '${user}': no tenant is configured for this user`);
  return tenant;
}

/** The context handed to per-user MCP server configs: the user and a frozen copy of their secrets. */
export function createTenantContext(user: string, tenant: TenantConfig | undefined): TenantContext {
  return { user, secrets: Object.freeze({ ...tenant?.secrets }) };
}
