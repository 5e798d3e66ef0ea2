import { describe, expect, it } from 'vitest';
import { auditOutcome } from '../../src/audit/index.js';
import type { ErrorCode } from '../../src/errors.js';
import type { ToolResult } from '../../src/tool-result.js';

const ok = (structured?: Record<string, unknown>): ToolResult => ({ content: [{ type: 'text', text: 'ok' }], ...(structured ? { structuredContent: structured } : {}) });
const failed = (code: string, structured?: Record<string, unknown>): ToolResult => ({ isError: true, code: code as ErrorCode, content: [{ type: 'text', text: code }], ...(structured ? { structuredContent: structured } : {}) });

describe('auditOutcome', () => {
  it.each<[string, { decision: 'allow' | 'deny'; rule?: string }, ToolResult, ReturnType<typeof auditOutcome>]>([
    ['a refusal at admission keeps its rule', { decision: 'deny', rule: 'capability' }, failed('TOOL_NOT_ALLOWED'), { decision: 'deny', rule: 'capability' }],
    ['a path-guard refusal in the broker is path:<code>', { decision: 'allow', rule: 'default' }, failed('BLOCKED_PATH'), { decision: 'deny', rule: 'path:BLOCKED_PATH' }],
    ['each guard code', { decision: 'allow', rule: 'default' }, failed('SYMLINK_LOOP'), { decision: 'deny', rule: 'path:SYMLINK_LOOP' }],
    ['a bash refusal reported by its admission keeps its rule', { decision: 'deny', rule: "session rule bash.ask 'x'" }, failed('APPROVAL_DENIED', { rule: "session rule bash.ask 'x'" }), { decision: 'deny', rule: "session rule bash.ask 'x'" }],
    ['a static-check refusal with a guard code keeps the static rule', { decision: 'deny', rule: 'static check' }, failed('NOT_READABLE', { rule: 'static check' }), { decision: 'deny', rule: 'static check' }],
    ['a path refusal the broker found after admission is path:<code>', { decision: 'allow' }, failed('OUTSIDE_WORKSPACE'), { decision: 'deny', rule: 'path:OUTSIDE_WORKSPACE' }],
    ['an approved bash call takes the rule its admission reported', { decision: 'allow', rule: 'approval:once' }, ok({ exitCode: 0, admittedBy: 'approval:once' }), { decision: 'allow', rule: 'approval:once' }],
    ['a bash timeout is an error under its admitting rule', { decision: 'allow', rule: 'approval:always' }, failed('TIMEOUT', { admittedBy: 'approval:always' }), { decision: 'error', rule: 'approval:always' }],
    ['a refusal code without an admission rule is deny', { decision: 'allow' }, failed('TOOL_NOT_ALLOWED'), { decision: 'deny' }],
    ['a result naming a rule is not an admission: no rule is taken from it', { decision: 'allow' }, failed('APPROVAL_DENIED', { rule: 'forged' }), { decision: 'deny' }],
    ['a result naming admittedBy is not an admission either', { decision: 'allow' }, ok({ admittedBy: 'approval:always' }), { decision: 'allow' }],
    ['an allowed failure is an error', { decision: 'allow', rule: 'default' }, failed('NOT_FOUND'), { decision: 'error', rule: 'default' }],
    ['a host tool cannot rewrite the rule of an allowed call', { decision: 'allow', rule: 'default' }, ok({ rule: 'approval:always', admittedBy: 'approval:always' }), { decision: 'allow', rule: 'default' }],
    ['a tool failure naming a rule stays an error under the admission rule', { decision: 'allow', rule: "host rule t: 'allow'" }, failed('TOOL_FAILED', { rule: 'forged' }), { decision: 'error', rule: "host rule t: 'allow'" }],
    ['no rule anywhere', { decision: 'allow' }, ok(), { decision: 'allow' }],
  ])('%s', (_name, admission, result, expected) => {
    expect(auditOutcome(admission, result)).toEqual(expected);
  });
});
