import { ToolwardenError, toPlainError, type PlainError } from '../../src/errors.js';
import type { BrokerApi, BrokerReply, CtxFsOp, GrepArgs } from '../../src/protocol.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import { applyEdit } from '../../src/text/edit.js';
import { BUILTIN_TOOLS } from '../../src/tools/builtin-registry.js';
import { BUILTIN_TOOL_NAMES } from '../../src/tools/builtin-schemas.js';
import type { BrokerServices } from './broker.js';
import { listDirectory, readExistingTextFile, statPath, writeTextFile } from './file-ops.js';
import { timeLeftMs, type CallContext } from '../calls/call-context.js';
import { refusalResult, type GateOutcome } from '../policy/policy-gate.js';
import { guardRefusalOf, type WorkRefusal } from '../../src/audit/index.js';
import type { DirectOutcome } from '../calls/call-plan.js';

/** How a ctx request fared against the rules, for the audit log: what admit() decided, or the gate's answer to it. */
export interface CtxAdmission {
  decision: 'allow' | 'deny';
  rule?: string;
}

/** What the broker needs to serve host tools' `ctx` requests. */
export interface CtxServices {
  /** Applies admit() (and the approver, its wait bounded by `context`) to a ctx request as if it were a call of `tool`. */
  admitCtx(tool: string, args: Record<string, unknown>, context: CallContext): Promise<GateOutcome>;
  /** Records a ctx request in the audit stream. */
  auditCtx(tool: string, args: Record<string, unknown>, admission: CtxAdmission, result: ToolResult, durationMs: number, refusal?: WorkRefusal): void;
  fetch(args: Record<string, unknown>, context: CallContext): Promise<ToolResult>;
  mcp(tool: string, args: Record<string, unknown>, context: CallContext): Promise<DirectOutcome>;
  log(level: 'info' | 'warn' | 'error', message: string, data?: unknown): void;
}

/** The built-in tool whose rules govern each `ctx.fs` operation, from the registry's `ctxFs`. */
export const CTX_FS_RULES: Readonly<Record<CtxFsOp, string>> = Object.fromEntries(
  BUILTIN_TOOL_NAMES.flatMap((name) => BUILTIN_TOOLS[name].ctxFs.map((op) => [op, name])),
) as Record<CtxFsOp, string>;

type CtxHandlers = Pick<BrokerApi, 'ctxFs' | 'ctxExec' | 'ctxFetch' | 'ctxMcp' | 'log'>;

/**
 * The broker's `ctx*` methods (the broker server passes them on only for a host tool's call): each goes through the same
 * rules and approvals as the built-in tool it stands for (file rules for ctx.fs, bash for ctx.exec, web_fetch for
 * ctx.fetch, the MCP tool's name for ctx.mcp.call), and is audited as `ctx:<tool>`. Its work (an approver's wait, a
 * command, a walk, a fetch, an MCP request) runs in the requesting call's context: it stops at that call's deadline,
 * or when that call ends.
 */
export function createCtxHandlers(services: BrokerServices, context: CallContext, grep: (args: GrepArgs) => Promise<unknown>): CtxHandlers {
  // The result, and for a failure its code and message as data (ctx.fs replies with them, not with the result's text).
  // An ungated request (ctx.exec) is admitted by bash itself, command by command, and reports what admit() decided.
  const run = async (tool: string, args: Record<string, unknown>, work: (report: (admitted: CtxAdmission) => void) => Promise<ToolResult | DirectOutcome>, gated = true): Promise<{ result: ToolResult; failure?: PlainError }> => {
    const started = performance.now();
    let admission: CtxAdmission | undefined;
    let outcome: { result: ToolResult; failure?: PlainError };
    // What the request's own work refused after the rules allowed it: the guard's refusal it threw, or its own check's.
    let refusal: WorkRefusal | undefined;
    try {
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new ToolwardenError('INVALID_ARGS', `arguments of ctx ${tool} must be an object`);
      const gate = gated ? await services.admitCtx(tool, args, context) : undefined;
      admission = gate === undefined ? { decision: 'allow' } : { decision: gate.decision, rule: gate.rule };
      if (gate?.decision === 'deny') {
        outcome = { result: refusalResult(gate), failure: { code: gate.code ?? 'POLICY_DENIED', message: gate.reason } };
      } else {
        try {
          const done = await work((admitted) => void (admission = admitted));
          if ('result' in done) {
            if (done.refusal !== undefined) refusal = done.refusal;
            outcome = { result: done.result };
          } else {
            outcome = { result: done };
          }
        } catch (error) {
          const failure = toPlainError(error);
          refusal = guardRefusalOf(failure.code);
          outcome = { result: errorResult(failure.code, failure.message), failure };
        }
      }
    } catch (error) {
      const failure = toPlainError(error);
      admission ??= { decision: 'deny', rule: 'ctx request check' };
      outcome = { result: errorResult(failure.code, failure.message), failure };
    }
    services.auditCtx(`ctx:${tool}`, args, admission, outcome.result, performance.now() - started, refusal);
    return outcome;
  };
  return {
    ctxFs: async (op, args): Promise<BrokerReply<unknown>> => {
      const tool = Object.hasOwn(CTX_FS_RULES, op) ? CTX_FS_RULES[op] : undefined;
      if (tool === undefined) return { ok: false, error: { code: 'INVALID_ARGS', message: `unknown ctx.fs operation '${String(op)}'` } };
      let value: unknown;
      const { failure } = await run(tool, args, async () => {
        value = await fsOperation(services, context, grep, op, args);
        return { content: [{ type: 'text', text: `ctx.fs.${op} done` }] };
      });
      if (failure !== undefined) return { ok: false, error: { code: failure.code, message: failure.message } };
      return { ok: true, value };
    },
    // bash applies its rules itself, per parsed command, for the built-in tool and ctx.exec alike.
    ctxExec: async (args) => (await run('bash', args, (report) => services.bash({ ...args, action: 'exec' }, context, report), false)).result,
    ctxFetch: async (args) => (await run('web_fetch', args, () => services.fetch(args, context))).result,
    ctxMcp: async (tool, args) => (await run(String(tool), args, () => services.mcp(String(tool), args, context))).result,
    log: async (level, message, data) => services.log(level, String(message), data),
  };
}

async function fsOperation(services: BrokerServices, context: CallContext, grep: (args: GrepArgs) => Promise<unknown>, op: CtxFsOp, args: Record<string, unknown>): Promise<unknown> {
  const { paths, quota, limits, walk } = services;
  const path = (): string => {
    if (typeof args['path'] !== 'string') throw new ToolwardenError('INVALID_ARGS', `ctx.fs.${op}: path must be a string`);
    return args['path'];
  };
  const text = (name: string): string => {
    if (typeof args[name] !== 'string') throw new ToolwardenError('INVALID_ARGS', `ctx.fs.${op}: ${name} must be a string`);
    return args[name] as string;
  };
  switch (op) {
    case 'readFile':
      return readExistingTextFile(paths, path());
    case 'writeFile':
      return await writeTextFile(paths, quota, path(), text('content'));
    case 'editFile': {
      const file = readExistingTextFile(paths, path());
      if (file.binary) throw new ToolwardenError('UNSUPPORTED_FILE', `${path()} is a binary file; editFile edits text`);
      const edited = applyEdit(file.text, text('old_string'), text('new_string'), args['replace_all'] === true, path());
      await writeTextFile(paths, quota, path(), edited.content);
      return { replacements: edited.replacements };
    }
    case 'list':
      return listDirectory(paths, typeof args['path'] === 'string' ? args['path'] : undefined, limits.maxResults).entries;
    case 'stat':
      return statPath(paths, path());
    case 'glob': {
      const root = paths.readable(typeof args['path'] === 'string' ? args['path'] : '.');
      const found = await walk.glob({ root, pattern: text('pattern'), maxResults: limits.maxResults, scope: { roots: [paths.scope.workspaceRoot, ...paths.scope.readRoots] } }, timeLeftMs(context, 'ctx.fs.glob'), context.signal);
      return found.paths;
    }
    case 'grep':
      return grep(args as unknown as GrepArgs);
  }
}
