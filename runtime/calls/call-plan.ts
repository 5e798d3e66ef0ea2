import type { Prefetched } from '../../src/protocol.js';
import { isMcpToolName } from '../../src/mcp/tool-name.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import { toPlainError } from '../../src/errors.js';
import { readFileResult } from '../../src/text/read-file-result.js';
import { globTool, grepTool, listDirTool, type FileToolContext } from '../../src/tools/file-tools.js';
import { guardRefusalOf, type WorkRefusal } from '../../src/audit/index.js';
import type { BrokeredFile } from '../../src/protocol.js';
import { builtinTool, type BuiltinArgs, type MainThreadToolName } from '../../src/tools/builtin-schemas.js';
import type { SessionServices } from '../session/session-services.js';
import type { CallContext } from './call-context.js';

/** What decided a call (or, for bash, one of its commands), as the audit log records it. */
export interface AdmissionReport {
  decision: 'allow' | 'deny';
  /** The rule that decided. */
  rule: string;
  /** The sentence admit() gave for the decision. */
  reason?: string;
}

/**
 * What a call run on the main thread returns: its result, and, when its own code decided something admit() could not
 * (bash admits each command; an MCP server that no longer lists the tool refuses it), that decision for the audit.
 */
export interface DirectOutcome {
  result: ToolResult;
  /** A tool admitted per command (bash): what admit() decided for its command. */
  admitted?: AdmissionReport;
  /** What the tool's own work refused after admit() allowed it: the broker's guard, or its own check (see WorkRefusal). */
  refusal?: WorkRefusal;
}

/** Runs a call on the main thread, in its context. */
export type DirectRun = () => Promise<DirectOutcome>;

/** How an admitted call runs beyond the default (the worker, asking the broker as it goes). */
export interface CallPlan {
  /** The broker's answer to the call's first, certain I/O request (the registry's `prefetch`), sent with the call. */
  prefetched?: Prefetched;
  /** Tools whose code is the broker's own (MCP tools, the registry's `runsIn: 'main'`) run on the main thread, in the call's context. */
  direct?: DirectRun;
}

/**
 * Files up to this size are formatted for read_file on the main thread, right after the broker read them (about a
 * millisecond of formatting at most, on this machine's slower core); larger ones in the session's worker.
 */
export const FORMAT_ON_MAIN_MAX_BYTES = 256 * 1024;

/** read_file's result on the main thread; a failure (a binary file, a bad offset) is its error result. */
function formatRead(args: BuiltinArgs<'read_file'>, file: BrokeredFile, readMaxChars: number): ToolResult {
  try {
    return readFileResult(args, file, readMaxChars);
  } catch (error) {
    const { code, message } = toPlainError(error);
    return errorResult(code, message);
  }
}

// The code of each built-in tool the registry says runs on the main thread.
const MAIN_THREAD_TOOLS: Record<MainThreadToolName, (services: SessionServices, args: Record<string, unknown>, context: CallContext) => DirectRun> = {
  bash: (services, args, context) => async () => {
    let admitted: AdmissionReport | undefined;
    const result = await services.bash.handle(args, context, (report) => (admitted = report));
    return admitted === undefined ? { result } : { result, admitted };
  },
  web_fetch: (services, args, context) => async () => ({ result: await services.fetch(args, context) }),
  list_dir: (services, args, context) => () => runFileTool(listDirTool, services, args, context),
  glob: (services, args, context) => () => runFileTool(globTool, services, args, context),
  grep: (services, args, context) => () => runFileTool(grepTool, services, args, context),
};

/**
 * A file tool run on the main thread over the session's broker, in the call's context (its walks stop at the
 * deadline). A refusal of the broker's path guard is the call's refusal, for the audit; any failure its result.
 */
async function runFileTool(tool: (args: never, ctx: FileToolContext) => Promise<ToolResult>, services: SessionServices, args: Record<string, unknown>, context: CallContext): Promise<DirectOutcome> {
  try {
    return { result: await tool(args as never, { broker: services.broker(context), readMaxChars: services.permissions.capability.limits.readMaxChars }) };
  } catch (error) {
    const { code, message } = toPlainError(error);
    const refusal = guardRefusalOf(code);
    return { result: errorResult(code, message), ...(refusal === undefined ? {} : { refusal }) };
  }
}

/**
 * Plans an admitted call, for the call's context, from the tool's registry descriptor. Prefetching saves read_file a
 * round trip between the worker and the broker (and a small file is formatted at once, saving the hop to the worker); running MCP tools and web_fetch on the main thread saves two, and
 * keeps the broker's MCP and fetch requests for host tools' ctx alone, where they are checked and audited per
 * request; bash's process groups live there, killed at the call's end.
 */
export async function planCall(services: SessionServices, tool: string, args: Record<string, unknown>, context: CallContext): Promise<CallPlan> {
  const descriptor = builtinTool(tool);
  if (descriptor?.prefetch === 'readFileStrict' && typeof args['path'] === 'string') {
    const path = args['path'];
    const reply = await services.broker(context).readFileStrict(path);
    // A small file is formatted where it was read: its text never crosses to the worker and back, which costs a
    // call more than the formatting does. A large one goes to the worker, whose formatting holds no one else's loop.
    if (reply.ok && reply.value.size <= FORMAT_ON_MAIN_MAX_BYTES) {
      const file = reply.value;
      const readMaxChars = services.permissions.capability.limits.readMaxChars;
      return { direct: () => Promise.resolve({ result: formatRead(args as BuiltinArgs<'read_file'>, file, readMaxChars) }) };
    }
    return { prefetched: { readFileStrict: { path, reply } } };
  }
  if (descriptor?.runsIn === 'main') return { direct: MAIN_THREAD_TOOLS[tool as MainThreadToolName](services, args, context) };
  if (isMcpToolName(tool)) return { direct: () => services.permissions.mcp.run(tool, args, context) };
  return {};
}
