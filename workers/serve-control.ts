import * as Comlink from 'comlink';
import type { Endpoint } from 'comlink';
import type { ToolHostControl } from '../src/protocol/tool-host-control.js';
import type { BoundSessionInfo } from '../src/protocol/worker-bind.js';
import type { ToolInfo } from '../src/tools/tool-info.js';

/**
 * Serves a tool host's control plane (comlink) on `endpoint`: `bind` runs `bind` once with the session and keeps the
 * listing it returns for `describeHostTools`; a second bind, or a listing before the bind, is refused.
 */
export function serveToolHostControl(endpoint: Endpoint, bind: (session: BoundSessionInfo) => () => Promise<ToolInfo[]>): void {
  let describe: (() => Promise<ToolInfo[]>) | undefined;
  const control: ToolHostControl = {
    bindSession: async (session) => {
      if (describe !== undefined) throw new Error('this tool host is bound already');
      if (typeof session !== 'object' || session === null || typeof session.id !== 'string') throw new Error('bind takes the session the host serves');
      describe = bind(session);
    },
    describeHostTools: async () => {
      if (describe === undefined) throw new Error('this tool host is not bound yet');
      return describe();
    },
  };
  Comlink.expose(control, endpoint);
}
