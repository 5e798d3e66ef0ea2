import type { Decision, PermissionSpec, PolicySubject } from '../../src/policy/index.js';

/** A bash subject whose static check passed unless said otherwise. */
export function bash(commands: string[], staticVerdict: Decision = 'allow', dangerous = false): PolicySubject {
  return dangerous ? { tool: 'bash', kind: 'bash', commands, staticVerdict, dangerous } : { tool: 'bash', kind: 'bash', commands, staticVerdict };
}

/** A file-tool subject over workspace-relative paths. */
export function file(tool: string, ...paths: string[]): PolicySubject {
  return { tool, kind: 'file', paths };
}

/** An MCP tool subject. */
export function mcp(tool: string): PolicySubject {
  return { tool, kind: 'mcp' };
}

/** The same spec with every pattern list reversed: precedence must not depend on order. */
export function reverseLists(spec: PermissionSpec): PermissionSpec {
  return Object.fromEntries(
    Object.entries(spec).map(([tool, rule]) => {
      if (typeof rule === 'string') return [tool, rule];
      const copy = { ...rule };
      for (const key of ['allow', 'ask', 'deny'] as const) if (copy[key]) copy[key] = [...copy[key]].reverse();
      return [tool, copy];
    }),
  );
}
