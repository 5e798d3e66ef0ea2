import type { Prefetched } from '../src/protocol.js';
import type { ToolResult } from '../src/tool-result.js';
import type { SessionServices } from './session-services.js';
import type { CallContext } from './call-context.js';

/** How an admitted call runs beyond the default (the worker, asking the broker as it goes). */
export interface CallPlan {
  /** The broker's answer to the call's first, certain I/O request, sent with the call: read_file's read. */
  prefetched?: Prefetched;
  /** Tools whose code is the broker's own run on the main thread (MCP tools, web_fetch), in the call's context. */
  direct?: () => Promise<ToolResult>;
}

/**
 * Plans an admitted call, for the call's context. Prefetching saves read_file a round trip between the worker and the broker; running MCP
 * tools and web_fetch on the main thread saves two, and keeps the broker's MCP and fetch requests for host tools'
 * ctx alone, where they are checked and audited per request.
 */
export async function planCall(services: SessionServices, tool: string, args: Record<string, unknown>, context: CallContext): Promise<CallPlan> {
  if (tool === 'read_file' && typeof args['path'] === 'string') {
    const path = args['path'];
    return { prefetched: { readFileStrict: { path, reply: await services.broker(context).readFileStrict(path) } } };
  }
  if (tool === 'web_fetch') return { direct: () => services.fetch(args, context) };
  if (tool.startsWith('mcp__')) return { direct: () => services.mcp.call(tool, args, context) };
  return {};
}
