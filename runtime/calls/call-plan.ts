import type { Prefetched } from '../../src/protocol.js';
import type { ToolResult } from '../../src/tool-result.js';
import { builtinTool, type MainThreadToolName } from '../../src/tools/builtin-schemas.js';
import type { SessionServices } from '../session/session-services.js';
import type { CallContext } from './call-context.js';
import type { AdmissionReport } from '../session/session.js';

/** Runs a call on the main thread; a tool admitted per command (bash) reports each command's admission. */
type DirectRun = (report: (admitted: AdmissionReport) => void) => Promise<ToolResult>;

/** How an admitted call runs beyond the default (the worker, asking the broker as it goes). */
export interface CallPlan {
  /** The broker's answer to the call's first, certain I/O request (the registry's `prefetch`), sent with the call. */
  prefetched?: Prefetched;
  /** Tools whose code is the broker's own (MCP tools, the registry's `runsIn: 'main'`) run on the main thread, in the call's context. */
  direct?: DirectRun;
}

// The code of each built-in tool the registry says runs on the main thread.
const MAIN_THREAD_TOOLS: Record<MainThreadToolName, (services: SessionServices, args: Record<string, unknown>, context: CallContext) => DirectRun> = {
  bash: (services, args, context) => (report) => services.bash.handle(args, context, report),
  web_fetch: (services, args, context) => () => services.fetch(args, context),
};

/**
 * Plans an admitted call, for the call's context, from the tool's registry descriptor. Prefetching saves read_file a
 * round trip between the worker and the broker; running MCP tools and web_fetch on the main thread saves two, and
 * keeps the broker's MCP and fetch requests for host tools' ctx alone, where they are checked and audited per
 * request; bash's process groups live there, killed at the call's end.
 */
export async function planCall(services: SessionServices, tool: string, args: Record<string, unknown>, context: CallContext): Promise<CallPlan> {
  const descriptor = builtinTool(tool);
  if (descriptor?.prefetch === 'readFileStrict' && typeof args['path'] === 'string') {
    const path = args['path'];
    return { prefetched: { readFileStrict: { path, reply: await services.broker(context).readFileStrict(path) } } };
  }
  if (descriptor?.runsIn === 'main') return { direct: MAIN_THREAD_TOOLS[tool as MainThreadToolName](services, args, context) };
  if (tool.startsWith('mcp__')) return { direct: () => services.mcp.call(tool, args, context) };
  return {};
}
