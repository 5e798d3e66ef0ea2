/**
 * Entry of a session worker. It boots idle (so the runtime can keep a warm pool), waits for one `bind` message that
 * hands it the two ports of its session, loads the session's host tool modules under import restrictions, then
 * serves tool calls. Everything outside the worker goes through the broker.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import * as Comlink from 'comlink/dist/esm/comlink.mjs';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { toPlainError } from '../src/errors.js';
import { PROTOCOL_VERSION, type BindMessage, type BrokerApi, type ToolHostApi } from '../src/protocol.js';
import { errorResult } from '../src/tool-result.js';
import { dispatchTool } from './tool-dispatch.js';
import { withPrefetched } from './prefetched-broker.js';
import type { DefinedTool } from '../src/host-tools/define-tool.js';
import type { ToolInfo } from '../src/tools/tool-info.js';

if (!parentPort) throw new Error('session-worker must run in a worker thread');
const port = parentPort;

port.once('message', (message: BindMessage) => {
  if (message.type !== 'bind' || message.version !== PROTOCOL_VERSION) {
    port.postMessage({ type: 'bind-refused', reason: `expected bind v${PROTOCOL_VERSION}` });
    return;
  }
  void bind(message);
});

async function bind(message: BindMessage): Promise<void> {
  const broker = Comlink.wrap<BrokerApi>(nodeEndpoint(message.brokerPort as MessagePort)) as unknown as BrokerApi;
  const info = message.session;
  const closing = new AbortController();
  let hostTools = new Map<string, DefinedTool>();
  let loadFailure: string | undefined;
  let runHostTool: typeof import('./host-tools/run-host-tool.js').runHostTool | undefined;
  let describeHostTool: ((tool: DefinedTool) => ToolInfo) | undefined;
  if (info.toolModules.length > 0) {
    // Host tool support (schema libraries, hooks) loads only in workers that have host tools: it doubles boot time.
    const [{ restrictWorker }, { loadHostTools }, runner, describer] = await Promise.all([
      import('./host-tools/restrict-worker.js'),
      import('./host-tools/load-tools.js'),
      import('./host-tools/run-host-tool.js'),
      import('./host-tools/describe-tool.js'),
    ]);
    runHostTool = runner.runHostTool;
    describeHostTool = describer.describeHostTool;
    restrictWorker();
    try {
      hostTools = await loadHostTools(info.toolModules);
    } catch (error) {
      loadFailure = toPlainError(error).message;
    }
  }
  const fileCtx = { broker, readMaxChars: info.readMaxChars };
  const sessionInfo = { id: info.id, user: info.user, workspaceRoot: info.workspaceRoot };
  const host: ToolHostApi = {
    callTool: async (name, args, prefetched) => {
      const tool = hostTools.get(name);
      if (tool && runHostTool) return runHostTool(tool, args, broker, sessionInfo, info.toolTimeoutMs, closing.signal);
      if (loadFailure !== undefined && !name.startsWith('mcp__')) return errorResult('TOOL_FAILED', loadFailure);
      return dispatchTool(name, args, prefetched ? { ...fileCtx, broker: withPrefetched(broker, prefetched) } : fileCtx);
    },
    describeHostTools: async () => {
      if (loadFailure !== undefined) throw new Error(loadFailure);
      return describeHostTool ? [...hostTools.values()].map(describeHostTool) : [];
    },
  };
  Comlink.expose(host, nodeEndpoint(message.hostPort as MessagePort));
  port.postMessage({ type: 'bound' });
}

port.postMessage({ type: 'ready' });
