import type { ToolHostApi } from '../src/protocol.js';
import { isToolHostRequest, TOOL_HOST_PROTOCOL_VERSION, type ToolHostReply } from '../src/protocol/tool-host.js';

/** The worker's (or tool process's) end of the tool host protocol: answers each request of the main thread. */
export function serveToolHost(api: ToolHostApi, transport: { post(reply: ToolHostReply): void; listen(listener: (data: unknown) => void): void }): void {
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
