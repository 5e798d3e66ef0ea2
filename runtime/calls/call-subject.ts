import { ToolwardenError } from '../../src/errors.js';
import type { PolicySubject } from '../../src/policy/index.js';
import { isMcpToolName } from '../../src/mcp/tool-name.js';
import { parsePatch } from '../../src/text/index.js';
import type { SessionPaths } from '../broker/session-paths.js';
import { builtinTool } from '../../src/tools/builtin-schemas.js';

/**
 * The policy subject of a call whose arguments are already valid, as its registry descriptor says (`subject`): file tools get canonical, workspace-relative
 * paths (the guard refuses here what it would refuse anyway, before any rule or approver sees the call); MCP
 * and other tools are matched by name. bash is decided in the broker, where its commands are parsed.
 */
export function describeCall(paths: SessionPaths, tool: string, args: Record<string, unknown>): PolicySubject {
  const spec = builtinTool(tool)?.subject;
  if (typeof spec !== 'object') return { tool, kind: isMcpToolName(tool) ? 'mcp' : 'other' };
  if (spec.access === 'read') {
    const target = typeof args['path'] === 'string' ? args['path'] : '.';
    return { tool, kind: 'file', paths: [paths.display(paths.readable(target))] };
  }
  if (spec.path !== 'in-patch') return { tool, kind: 'file', paths: [paths.display(paths.writable(args['path'], 'other'))] };
  const touched = patchPaths(String(args['patch']));
  if (touched.length === 0) throw new ToolwardenError('INVALID_ARGS', `${tool}: the patch changes no file`);
  return { tool, kind: 'file', paths: [...new Set(touched.map((p) => paths.display(paths.writable(p, 'other'))))] };
}

/** Every path a patch touches, as written in it (a move's source and destination both). @throws on a bad patch */
export function patchPaths(patch: string): string[] {
  return parsePatch(patch).flatMap((op) => (op.kind === 'update' && op.moveTo ? [op.path, op.moveTo] : [op.path]));
}
