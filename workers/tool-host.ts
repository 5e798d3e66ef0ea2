import { toPlainError } from '../src/errors.js';
import type { ToolHostApi } from '../src/protocol/tool-host.js';
import { isMcpToolName } from '../src/mcp/tool-name.js';
import type { BoundSessionInfo } from '../src/protocol/worker-bind.js';
import { errorResult, type ToolResult } from '../src/tool-result.js';
import type { DefinedTool } from '../src/host-tools/define-tool.js';
import type { ToolInfo } from '../src/tools/tool-info.js';
import { dispatchTool } from './tool-dispatch.js';
import type { BrokerForCall } from './broker-client.js';
import type { CallControl } from '../src/protocol/tool-host.js';

/**
 * The tool host of one session inside its worker: built-in tools, plus the session's host tool modules loaded under
 * import restrictions. Host-tool support (schema libraries, hooks) loads only when there are host tools: it doubles
 * the worker's start-up. Each call reaches the broker under its own call id (`brokerFor`). `loadRestriction` gives what narrows host code's reach before it loads: in a worker, the
 * import hooks (the default); an isolated process, where Node's permission model is the boundary, passes its own.
 */
export async function createToolHost(brokerFor: BrokerForCall, info: BoundSessionInfo, loadRestriction: () => Promise<() => void> = loadWorkerRestriction): Promise<ToolHostApi> {
  let hostTools = new Map<string, DefinedTool>();
  let loadFailure: string | undefined;
  let runHostTool: ((tool: DefinedTool, args: unknown, callId: string, control: CallControl) => Promise<ToolResult>) | undefined;
  let describeHostTool: ((tool: DefinedTool) => ToolInfo) | undefined;
  if (info.toolModules.length > 0) {
    const [restrict, { loadHostTools }, runner, describer, contexts] = await Promise.all([
      loadRestriction(),
      import('./host-tools/load-tools.js'),
      import('./host-tools/run-host-tool.js'),
      import('./host-tools/describe-tool.js'),
      import('./host-tools/tool-context.js'),
    ]);
    const session = Object.freeze({ id: info.id, user: info.user, workspaceRoot: info.workspaceRoot });
    runHostTool = (tool, args, callId, control) => runner.runHostTool(tool, args, control, (signal) => contexts.createCallContext(brokerFor(callId), session, signal));
    describeHostTool = describer.describeHostTool;
    restrict();
    try {
      hostTools = await loadHostTools(info.toolModules);
    } catch (error) {
      loadFailure = toPlainError(error).message;
    }
  }
  return {
    callTool: async (name, args, callId, prefetched, control) => {
      const tool = hostTools.get(name);
      if (tool && runHostTool) return runHostTool(tool, args, callId, control);
      if (loadFailure !== undefined && !isMcpToolName(name)) return errorResult('TOOL_FAILED', loadFailure);
      return dispatchTool(name, args, { broker: brokerFor(callId, prefetched), readMaxChars: info.readMaxChars });
    },
    describeHostTools: async () => {
      if (loadFailure !== undefined) throw new Error(loadFailure);
      return describeHostTool ? [...hostTools.values()].map(describeHostTool) : [];
    },
  };
}

async function loadWorkerRestriction(): Promise<() => void> {
  return (await import('./host-tools/restrict-worker.js')).restrictWorker;
}
