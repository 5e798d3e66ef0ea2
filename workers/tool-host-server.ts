import { isToolHostRequest, TOOL_HOST_PROTOCOL_VERSION, type ToolHostApi, type ToolHostReply } from '../src/protocol/tool-host.js';
import type { Transport } from '../src/protocol/transport.js';
import { HostCallControl } from './call-control.js';

/**
 * The worker's (or tool process's) end of the tool host protocol: answers each request of the main thread, and
 * passes a call's cancel or moved deadline to that call's control while it runs.
 */
export function serveToolHost(api: ToolHostApi, transport: Transport<ToolHostReply>): void {
  const running = new Map<number, HostCallControl>();
  transport.listen((data) => {
    if (!isToolHostRequest(data)) return;
    const { seq } = data;
    const failed = (error: unknown): void => transport.post({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'failed', seq, message: error instanceof Error ? error.message : String(error) });
    switch (data.type) {
      case 'cancel':
        running.get(seq)?.cancel(data.code, data.message);
        return;
      case 'deadline':
        running.get(seq)?.moveDeadline(data.deadline);
        return;
      case 'call': {
        const control = new HostCallControl(data.name, data.deadline, data.limit);
        running.set(seq, control);
        const end = (): void => {
          running.delete(seq);
          control.dispose();
        };
        api.callTool(data.name, data.args, data.callId, data.prefetched, control).then(
          (result) => {
            end();
            transport.post({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'result', seq, result });
          },
          (error: unknown) => {
            end();
            failed(error);
          },
        );
      }
    }
  });
}
