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

/**
 * A bash subject as the broker builds it from the shell check: each command with its own static verdict (and a
 * reason `why <command>` when it is not `allow`), the call's verdict the strictest of them.
 */
export function checked(verdicts: Record<string, Decision>, extra: { dangerous?: string; unchecked?: string[] } = {}): PolicySubject {
  const commands = Object.keys(verdicts);
  const values = Object.values(verdicts);
  const staticVerdict: Decision = values.includes('deny') ? 'deny' : values.includes('ask') || extra.unchecked ? 'ask' : 'allow';
  const commandVerdicts = Object.fromEntries(
    Object.entries(verdicts).map(([text, verdict]) => [text, { verdict, reasons: verdict === 'allow' ? [] : [`why ${text}`], ...(text === extra.dangerous ? { dangerous: true } : {}) }]),
  );
  return {
    tool: 'bash',
    kind: 'bash',
    commands,
    staticVerdict,
    commandVerdicts,
    ...(extra.dangerous ? { dangerous: true } : {}),
    ...(extra.unchecked ? { unchecked: extra.unchecked } : {}),
  };
}
