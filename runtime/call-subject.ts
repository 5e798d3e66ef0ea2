import { ToolwardenError } from '../src/errors.js';
import type { PolicySubject } from '../src/policy/index.js';
import { parsePatch } from '../src/text/index.js';
import type { SessionPaths } from './broker/session-paths.js';

const READ_TOOLS = new Set(['read_file', 'list_dir', 'glob', 'grep']);
const WRITE_TOOLS = new Set(['write_file', 'edit_file']);

/**
 * The policy subject of a call whose arguments are already valid: file tools get canonical, workspace-relative
 * paths (the guard refuses here what it would refuse anyway, before any rule or approver sees the call); MCP
 * and other tools are matched by name. bash is decided in the broker, where its commands are parsed.
 */
export function describeCall(paths: SessionPaths, tool: string, args: Record<string, unknown>): PolicySubject {
  if (READ_TOOLS.has(tool)) {
    const target = typeof args['path'] === 'string' ? args['path'] : '.';
    return { tool, kind: 'file', paths: [paths.display(paths.readable(target))] };
  }
  if (WRITE_TOOLS.has(tool)) {
    return { tool, kind: 'file', paths: [paths.display(paths.writable(args['path']))] };
  }
  if (tool === 'apply_patch') {
    const ops = parsePatch(String(args['patch']));
    const touched = ops.flatMap((op) => (op.kind === 'update' && op.moveTo ? [op.path, op.moveTo] : [op.path]));
    if (touched.length === 0) throw new ToolwardenError('INVALID_ARGS', 'apply_patch: the patch changes no file');
    return { tool, kind: 'file', paths: [...new Set(touched.map((p) => paths.display(paths.writable(p))))] };
  }
  return { tool, kind: tool.startsWith('mcp__') ? 'mcp' : 'other' };
}
