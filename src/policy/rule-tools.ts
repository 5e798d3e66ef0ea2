import { ToolwardenError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { MCP_TOOL_PREFIX as MCP_PREFIX, parseMcpToolName } from '../mcp/tool-name.js';
import { compileWordPattern } from './match-pattern.js';
import type { PermissionSpec } from './types.js';

/** The tools rules may name: built-in and loaded host tools by name, MCP tools by `mcp__<server>__<tool>`. */
export interface KnownTools {
  /** Built-in and loaded host tool names. */
  readonly names: readonly string[];
  /** Configured MCP server ids; `undefined` accepts any well-formed id. */
  readonly mcpServerIds?: readonly string[] | undefined;
}

const LISTS = ['allow', 'ask', 'deny'] as const;

/**
 * Refuses rules that can never apply, so a typo never silently denies nothing: a key that is neither `'*'`, a
 * known tool, nor an MCP tool name of a configured server; a pattern of the `'*'` entry (which matches tool
 * names) that matches no known tool and is not an MCP name or pattern.
 * @throws ToolwardenError `INVALID_OPTIONS` naming the key or pattern, with a "did you mean" when one is close
 * @example checkRuleTools({ bsh: 'deny' }, 'permissions', { names: ['bash'] }) // throws: did you mean 'bash'?
 */
export function checkRuleTools(spec: PermissionSpec, where: string, known: KnownTools): void {
  for (const [key, rule] of Object.entries(spec)) {
    if (key === '*') {
      if (typeof rule === 'string') continue;
      for (const list of LISTS) {
        rule[list]?.forEach((pattern, i) => checkNamePattern(pattern, `${where}['*'].${list}[${i}]`, known));
      }
      continue;
    }
    const problem = key.startsWith(MCP_PREFIX) ? mcpKeyProblem(key, known) : known.names.includes(key) ? undefined : unknownToolProblem(key, known);
    if (problem !== undefined) throw new ToolwardenError('INVALID_OPTIONS', `${where} has a rule for '${key}', ${problem}`);
  }
}

function unknownToolProblem(key: string, known: KnownTools): string {
  const hint = key.includes('*') ? `; rule keys are exact tool names: to match names by pattern, use '*': { deny: ['${key}'] }` : didYouMean(key, known.names);
  return `which is not a built-in, host or MCP tool${hint}; known: ${known.names.join(', ')}`;
}

function mcpKeyProblem(key: string, known: KnownTools): string | undefined {
  if (key.includes('*')) return `a pattern; rule keys are exact tool names: to match MCP tools by pattern, use '*': { deny: ['${key}'] }`;
  const parsed = parseMcpToolName(key);
  if (parsed === undefined) return 'which is not an MCP tool name (mcp__<server>__<tool>)';
  return serverProblem(parsed.serverId, known);
}

function checkNamePattern(pattern: string, where: string, known: KnownTools): void {
  if (pattern.startsWith(MCP_PREFIX)) {
    const rest = pattern.slice(MCP_PREFIX.length);
    const cut = rest.indexOf('__');
    const serverId = cut < 0 ? rest : rest.slice(0, cut);
    // A wildcard in the server part may match any server; otherwise the server must be configured.
    if (serverId.includes('*')) return;
    const problem = cut < 0 ? 'which is not an MCP tool name or pattern (mcp__<server>__<tool>)' : serverProblem(serverId, known);
    if (problem !== undefined) throw new ToolwardenError('INVALID_OPTIONS', `${where} '${pattern}' matches tool names; it is ${problem}`);
    return;
  }
  const matches = compileWordPattern(pattern);
  if (known.names.some((name) => matches(name)) || matches(`${MCP_PREFIX}x__y`)) return;
  throw new ToolwardenError('INVALID_OPTIONS', `${where} '${pattern}' matches tool names but no built-in, host or MCP tool${didYouMean(pattern, known.names)}; known: ${known.names.join(', ')}`);
}

function serverProblem(serverId: string, known: KnownTools): string | undefined {
  if (known.mcpServerIds === undefined || known.mcpServerIds.includes(serverId)) return undefined;
  const configured = known.mcpServerIds.length === 0 ? 'none is configured' : `configured: ${known.mcpServerIds.join(', ')}`;
  return `a tool of MCP server '${serverId}', which is not configured${didYouMean(serverId, known.mcpServerIds)} (${configured})`;
}
