import { isMcpToolAllowed, parseMcpEntry } from '../mcp/entries.js';
import { parseMcpToolName } from '../mcp/tool-name.js';
import type { AdmitInput } from './admit.js';

/** Whether a capability exposes a tool, and what it does expose (told only in a refusal, so listed only for one). */
export type ToolExposure = NonNullable<AdmitInput['exposure']>;

/** The part of a capability that decides which tools a session sees. */
export interface ExposedTools {
  readonly tools: readonly string[];
  /** MCP entries: `'id'`, `'id:tool'`, `'id:pattern*'`. */
  readonly mcpServers: readonly string[];
}

/**
 * The exposure {@link admit} refuses a call by (`TOOL_NOT_ALLOWED`): a built-in or host tool when the capability's
 * `tools` names it, an `mcp__<id>__<tool>` name when one of its MCP entries allows it. `mcpAllows` lets a session pass
 * the entries it parsed once; the default parses them from the capability.
 * @example toolExposure({ tools: ['read_file'], mcpServers: [] }, 'bash') // { visible: false, allowed: ['read_file'] }
 */
export function toolExposure(exposed: ExposedTools, tool: string, mcpAllows: (tool: string) => boolean = (name) => allowsMcp(exposed, name)): ToolExposure {
  const visible = tool.startsWith('mcp__') ? mcpAllows(tool) : exposed.tools.includes(tool);
  return { visible, allowed: visible ? [] : [...exposed.tools, ...exposed.mcpServers.map((entry) => `MCP ${entry}`)] };
}

function allowsMcp(exposed: ExposedTools, name: string): boolean {
  const parsed = parseMcpToolName(name);
  return parsed !== undefined && isMcpToolAllowed(exposed.mcpServers.map(parseMcpEntry), parsed.serverId, parsed.tool);
}
