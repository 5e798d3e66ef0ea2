import { parseMcpEntries } from '../src/mcp/entries.js';
import type { ExposedTools } from '../src/policy/index.js';
import type { ServeConfig, ServeTenant } from '../src/serve/serve-config.js';
import { bindSessionToTenant } from '../src/tenants/index.js';
import { BUILTIN_TOOL_NAMES } from '../src/tools/builtin-schemas.js';

/** What `explain` asks of the session it stands for: `--tools`, `--mcp` and `--user` (whose tenant is given), each possibly absent. */
export interface ExplainedSession {
  tools?: string[] | undefined;
  mcp?: string[] | undefined;
  user?: string | undefined;
}

/**
 * The tools and MCP entries a served session opened with these flags would have, bound to the user's tenant by the
 * runtime's own {@link bindSessionToTenant} (a tenant's lists are the defaults; asking beyond them is ESCALATION), with
 * MCP entries checked against the config's servers as `openSession` checks them. With none of the three flags, the
 * explanation is of the rules alone: every built-in tool and every configured MCP server, and a note says so.
 * @throws ToolwardenError ESCALATION beyond the tenant, INVALID_OPTIONS for an entry naming no configured server
 */
export function explainedExposure(config: ServeConfig | undefined, asked: ExplainedSession, tenant: ServeTenant | undefined): { exposed: ExposedTools; note?: string } {
  const serverIds = Object.keys(config?.mcpServers ?? {});
  if (asked.tools === undefined && asked.mcp === undefined && asked.user === undefined) {
    const note = 'capability: every built-in tool and MCP server (no --tools, --mcp or --user said which a session has)';
    return { exposed: { tools: BUILTIN_TOOL_NAMES, mcpServers: serverIds }, note };
  }
  if (asked.mcp !== undefined) parseMcpEntries(asked.mcp, serverIds);
  const bound = bindSessionToTenant({ ...(asked.tools ? { tools: asked.tools } : {}), ...(asked.mcp ? { mcpServers: asked.mcp } : {}) }, tenant, asked.user);
  return { exposed: { tools: bound.tools ?? [], mcpServers: bound.mcpServers } };
}
