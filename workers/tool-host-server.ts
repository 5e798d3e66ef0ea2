import { isToolHostRequest, TOOL_HOST_PROTOCOL_VERSION, type ToolHostApi, type ToolHostReply } from '../src/protocol/tool-host.js';
import type { Transport } from '../src/protocol/transport.js';

/** The worker's (or tool process's) end of the tool host protocol: answers each request of the main thread. */
export function serveToolHost(api: ToolHostApi, transport: Transport<ToolHostReply>): void {
  transport.listen((data) => {
    if (!isToolHostRequest(data)) return;
    const { seq } = data;
    const failed = (error: unknown): void => transport.post({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'failed', seq, message: error instanceof Error ? error.message : String(error) });
    if (data.type === 'describe') {
      api.describeHostTools().then((tools) => transport.post({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'described', seq, tools }), failed);
      return;
    }
    api.callTool(data.name, data.args, data.callId, data.prefetched).then((result) => transport.post({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'result', seq, result }), failed);
  });
}
