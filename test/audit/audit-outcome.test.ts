import { describe, expect, it } from 'vitest';
import { auditOutcome, guardRefusalOf, type WorkRefusal } from '../../src/audit/index.js';
import type { ErrorCode } from '../../src/errors.js';
import type { ToolResult } from '../../src/tool-result.js';

const ok = (structured?: Record<string, unknown>): ToolResult => ({ content: [{ type: 'text', text: 'ok' }], ...(structured ? { structuredContent: structured } : {}) });
const failed = (code: string, structured?: Record<string, unknown>): ToolResult => ({ isError: true, code: code as ErrorCode, content: [{ type: 'text', text: code }], ...(structured ? { structuredContent: structured } : {}) });

describe('auditOutcome', () => {
  it.each<[string, { decision: 'allow' | 'deny'; rule?: string }, ToolResult, WorkRefusal | undefined, ReturnType<typeof auditOutcome>]>([
    ['a refusal at admission keeps its rule', { decision: 'deny', rule: 'capability' }, failed('TOOL_NOT_ALLOWED'), undefined, { decision: 'deny', rule: 'capability' }],
    ['a path-guard refusal the broker reported is path:<code>', { decision: 'allow', rule: 'default' }, failed('BLOCKED_PATH'), { guardRule: 'path:BLOCKED_PATH' }, { decision: 'deny', rule: 'path:BLOCKED_PATH' }],
    ['each guard code the broker reports', { decision: 'allow', rule: 'default' }, failed('SYMLINK_LOOP'), { guardRule: 'path:SYMLINK_LOOP' }, { decision: 'deny', rule: 'path:SYMLINK_LOOP' }],
    ['a bash refusal reported by its admission keeps its rule', { decision: 'deny', rule: "session rule bash.ask 'x'" }, failed('APPROVAL_DENIED', { rule: "session rule bash.ask 'x'" }), undefined, { decision: 'deny', rule: "session rule bash.ask 'x'" }],
    ['a static-check refusal with a guard code keeps the static rule', { decision: 'deny', rule: 'static check' }, failed('NOT_READABLE', { rule: 'static check' }), undefined, { decision: 'deny', rule: 'static check' }],
    ["the tool's own refusal is deny under the admitting rule", { decision: 'allow', rule: 'default' }, failed('TOOL_NOT_ALLOWED'), { refused: true }, { decision: 'deny', rule: 'default' }],
    ['an approved bash call takes the rule its admission reported', { decision: 'allow', rule: 'approval:once' }, ok({ exitCode: 0, admittedBy: 'approval:once' }), undefined, { decision: 'allow', rule: 'approval:once' }],
    ['a bash timeout is an error under its admitting rule', { decision: 'allow', rule: 'approval:always' }, failed('TIMEOUT', { admittedBy: 'approval:always' }), undefined, { decision: 'error', rule: 'approval:always' }],
    // The result is the tool's: a refusal or guard code in it, with nothing reported by the code that decided, is an error.
    ['a guard code in a result, not reported by the broker, is an error', { decision: 'allow', rule: 'default' }, failed('OUTSIDE_WORKSPACE'), undefined, { decision: 'error', rule: 'default' }],
    ['a refusal code in a result is not a refusal', { decision: 'allow' }, failed('TOOL_NOT_ALLOWED'), undefined, { decision: 'error' }],
    ['a result naming a rule is not an admission: no rule is taken from it', { decision: 'allow' }, failed('APPROVAL_DENIED', { rule: 'forged' }), undefined, { decision: 'error' }],
    ['a result naming admittedBy is not an admission either', { decision: 'allow' }, ok({ admittedBy: 'approval:always' }), undefined, { decision: 'allow' }],
    ['an allowed failure is an error', { decision: 'allow', rule: 'default' }, failed('NOT_FOUND'), undefined, { decision: 'error', rule: 'default' }],
    ['a host tool cannot rewrite the rule of an allowed call', { decision: 'allow', rule: 'default' }, ok({ rule: 'approval:always', admittedBy: 'approval:always' }), undefined, { decision: 'allow', rule: 'default' }],
    ['a tool failure naming a rule stays an error under the admission rule', { decision: 'allow', rule: "host rule t: 'allow'" }, failed('TOOL_FAILED', { rule: 'forged' }), undefined, { decision: 'error', rule: "host rule t: 'allow'" }],
    ['no rule anywhere', { decision: 'allow' }, ok(), undefined, { decision: 'allow' }],
  ])('%s', (_name, admission, result, work, expected) => {
    expect(auditOutcome(admission, result, work)).toEqual(expected);
  });

  it.each([
    ['OUTSIDE_WORKSPACE', { guardRule: 'path:OUTSIDE_WORKSPACE' }],
    ['NOT_READABLE', { guardRule: 'path:NOT_READABLE' }],
    ['BLOCKED_PATH', { guardRule: 'path:BLOCKED_PATH' }],
    ['SYMLINK_LOOP', { guardRule: 'path:SYMLINK_LOOP' }],
    ['NOT_FOUND', undefined],
    ['TOOL_NOT_ALLOWED', undefined],
    [undefined, undefined],
  ])('a failure the broker threw with %s is a guard refusal: %j', (code, expected) => {
    expect(guardRefusalOf(code)).toEqual(expected);
  });
});
