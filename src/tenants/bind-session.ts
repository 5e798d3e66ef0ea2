import { ToolwardenError } from '../errors.js';
import { narrowMcpEntries, parseMcpEntry } from '../mcp/entries.js';
import type { TenantConfig } from './tenant-config.js';

/** What a session asks for, before it is bound to its user's tenant. */
export interface SessionRequest {
  tools?: string[];
  mcpServers?: string[];
}

/**
 * Binds a session's request to its tenant. With a tenant, every asked-for tool and MCP entry must be within
 * the tenant's allowance, and a list not given defaults to the tenant's. Without a tenant (no tenants
 * configured, or no user), the request stands as asked and MCP entries default to none; the caller still
 * checks server ids against the runtime's servers with `parseMcpEntries`.
 * @throws ToolwardenError ESCALATION naming the user and what they asked for beyond their allowance.
 */
export function bindSessionToTenant(
  req: SessionRequest,
  tenant: TenantConfig | undefined,
  user: string | undefined,
): { tools: string[] | undefined; mcpServers: string[] } {
  if (tenant === undefined) return { tools: req.tools, mcpServers: req.mcpServers ?? [] };
  const who = `user '${user ?? '(none)'}'`;
  const tenantEntries = (tenant.mcpServers ?? []).map(parseMcpEntry);
  let mcpServers = tenant.mcpServers ?? [];
  if (req.mcpServers !== undefined) {
    narrowMcpEntries(tenantEntries, req.mcpServers, `the tenant of ${who}`);
    mcpServers = req.mcpServers;
  }
  let tools = tenant.tools;
  if (req.tools !== undefined) {
    const allowance = tenant.tools;
    const extra = allowance === undefined ? [] : req.tools.filter((tool) => !allowance.includes(tool));
    if (extra.length > 0) {
      throw new ToolwardenError('ESCALATION', `${who} asked for tools ${extra.join(', ')} beyond the tenant's allowance (${allowance?.join(', ') || 'none'})`);
    }
    tools = req.tools;
  }
  return { tools: tools === undefined ? undefined : [...tools], mcpServers: [...mcpServers] };
}
