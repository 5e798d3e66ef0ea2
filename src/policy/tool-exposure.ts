import { isMcpToolAllowed, parseMcpEntry } from '../mcp/entries.js';
import { isMcpToolName, parseMcpToolName } from '../mcp/tool-name.js';
import type { AdmitInput } from './admit.js';

/** Whether a capability exposes a tool, and what it does expose (told only in a refusal, so listed only for one). */
export type ToolExposure = NonNullable<AdmitInput['exposure']>;

/** The part of a capability that decides which tools a session sees. */
export interface ExposedTools {
  readonly tools: readonly string[];
  /** MCP entries: `'id'`, `'id:tool'`, `'id:pattern*'`. */
  readonly mcpServers: readonly string[];
}

/** Whether an `mcp__<id>__<tool>` name is allowed; a session passes the check of the entries it parsed once. */
export type McpAllows = (tool: string) => boolean;

/**
 * Whether a capability exposes a tool: a built-in or host tool when its `tools` names it, an `mcp__<id>__<tool>` name
 * when one of its MCP entries allows it. The one rule for a session's calls and for `toolwarden explain`.
 * @example exposesTool({ tools: ['read_file'], mcpServers: ['gh:list_*'] }, 'mcp__gh__list_issues') // true
 */
export function exposesTool(exposed: ExposedTools, tool: string, mcpAllows: McpAllows = (name) => allowsMcp(exposed, name)): boolean {
  return isMcpToolName(tool) ? mcpAllows(tool) : exposed.tools.includes(tool);
}

/**
 * The exposure {@link admit} refuses a call by (`TOOL_NOT_ALLOWED`): {@link exposesTool}, and what the capability
 * does expose when it does not.
 * @example toolExposure({ tools: ['read_file'], mcpServers: [] }, 'bash') // { visible: false, allowed: ['read_file'] }
 */
export function toolExposure(exposed: ExposedTools, tool: string, mcpAllows?: McpAllows): ToolExposure {
  const visible = exposesTool(exposed, tool, mcpAllows);
  return { visible, allowed: visible ? [] : [...exposed.tools, ...exposed.mcpServers.map((entry) => `MCP ${entry}`)] };
}

function allowsMcp(exposed: ExposedTools, name: string): boolean {
  const parsed = parseMcpToolName(name);
  return parsed !== undefined && isMcpToolAllowed(exposed.mcpServers.map(parseMcpEntry), parsed.serverId, parsed.tool);
}
