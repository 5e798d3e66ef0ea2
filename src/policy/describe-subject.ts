import { posix } from 'node:path';
import { builtinTool } from '../tools/builtin-schemas.js';
import { isMcpToolName } from '../mcp/tool-name.js';
import type { PolicySubject } from './types.js';


/**
 * A best-effort subject from raw arguments, for `explain` without a broker: built-in file tools (by their registry
 * `subject`) take their
 * `path` (lexically normalized; `.` when a walk has none), bash takes its whole `command` as one simple
 * command, `mcp__*` tools are MCP and the rest are matched by name. apply_patch paths live inside the patch,
 * so they are left empty: pass them explicitly. The broker builds real subjects from checked paths and the
 * shell checker's commands instead.
 */
export function describeSubject(tool: string, args: Record<string, unknown>): PolicySubject {
  if (tool === 'bash') {
    return { tool, kind: 'bash', commands: typeof args['command'] === 'string' ? [args['command']] : [] };
  }
  const spec = builtinTool(tool)?.subject;
  if (typeof spec === 'object') {
    const path = args['path'];
    if (typeof path === 'string' && path !== '') return { tool, kind: 'file', paths: [normalizeRelative(path)] };
    return { tool, kind: 'file', paths: spec.path === 'defaults-to-root' ? ['.'] : [] };
  }
  return { tool, kind: isMcpToolName(tool) ? 'mcp' : 'other' };
}

function normalizeRelative(path: string): string {
  const normalized = posix.normalize(path.replaceAll('\\', '/'));
  return normalized.startsWith('./') ? normalized.slice(2) : normalized;
}
