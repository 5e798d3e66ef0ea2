import fs from 'node:fs';
import { ToolwardenError, toPlainError } from '../../src/errors.js';
import { describeShellCheck, preRuleRule, type PreRuleRefusal } from '../../src/policy/index.js';
import type { ShellCheck } from '../../src/shell/index.js';
import { isBuiltinTool } from '../../src/tools/builtin-schemas.js';
import { validateBuiltinArgs } from '../../src/tools/validate-args.js';
import type { SessionPaths } from '../broker/session-paths.js';
import { describeCall } from '../calls/call-subject.js';
import { checkCommand } from '../shell/command-check.js';
import type { GateRequest } from './policy-gate.js';

/** How much of a call or ctx request to describe before admit() sees it. */
export interface DescribeOptions {
  /** Whether any rule layer mentions the tool; when none does (and it is not apply_patch) the subject is skipped. */
  rulesMention: boolean;
  /** The session's exposure of the tool (tool calls); a ctx request stands for a built-in tool and has none. */
  exposure?: GateRequest['exposure'];
  /** Check a built-in tool's arguments against its schema first (tool calls; a ctx request has its own shape). */
  validateArgs?: boolean;
}

/**
 * What admit() decides a tool call or a ctx request from: its arguments checked, and its subject through the path
 * guard when a rule mentions the tool (no rule: the built-in default allows it, and the broker's guard refuses what
 * it must). apply_patch is always described: every path it would write is checked before the worker reads any. A
 * refusal of the arguments or the guard becomes the request's `refused`, for admit() to decide.
 */
export function describeRequest(paths: SessionPaths, tool: string, args: Record<string, unknown>, options: DescribeOptions): GateRequest {
  const { exposure } = options;
  const base: GateRequest = exposure === undefined ? { tool } : { tool, exposure };
  if (exposure?.visible === false) return base;
  try {
    if (options.validateArgs === true && isBuiltinTool(tool)) validateBuiltinArgs(tool, args);
    if (tool !== 'apply_patch' && !options.rulesMention) return base;
    return { ...base, subject: describeCall(paths, tool, args) };
  } catch (error) {
    return { ...base, refused: refusalOf(error) };
  }
}

/** One bash command as admit() sees it, with the checked working directory and the path that decided a static deny. */
export interface CommandRequest {
  request: GateRequest;
  /** The canonical working directory; empty when the guard refused it (`request.refused` is set then). */
  cwd: string;
  decidingPath?: string;
  /** The static check's result, when the working directory passed the guard. */
  check?: ShellCheck;
}

/**
 * What admit() decides one bash command from: the guard's refusal of its working directory, the static check's
 * refusal, or the subject of its simple commands, each with its own static verdict.
 * @throws ToolwardenError NOT_FOUND when the working directory does not exist (not a refusal: nothing was decided)
 */
export async function describeCommand(paths: SessionPaths, command: string, cwdInput: unknown, home: string, sandboxed: boolean): Promise<CommandRequest> {
  let cwd: string;
  try {
    cwd = paths.workingDirectory(cwdInput ?? '.');
  } catch (error) {
    return { cwd: '', request: { tool: 'bash', refused: refusalOf(error) } };
  }
  if (!fs.existsSync(cwd)) throw new ToolwardenError('NOT_FOUND', `cwd ${String(cwdInput)} does not exist`);
  const check = await checkCommand(paths, command, cwd, home, sandboxed);
  const subject = describeShellCheck(check);
  if (check.verdict !== 'deny') return { cwd, request: { tool: 'bash', subject }, check };
  const at = check.decidingPath ? ` (path '${check.decidingPath}')` : '';
  const refused: PreRuleRefusal = { code: check.code ?? 'POLICY_DENIED', reason: `command refused by the static check${at}: ${check.reasons.join('; ')}`, rule: 'static check' };
  return { cwd, request: { tool: 'bash', subject, refused }, check, ...(check.decidingPath ? { decidingPath: check.decidingPath } : {}) };
}

/** A thrown guard or argument error as a refusal before any rule, named `path:<code>` or `admission:<code>`. */
export function refusalOf(error: unknown): PreRuleRefusal {
  const { code, message } = toPlainError(error);
  return { code, reason: message, rule: preRuleRule(code) };
}
