import fs from 'node:fs';
import { createRuntime, type ApprovalRequest, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

/**
 * A session for the adapter loops: reading `private/**` is denied by a rule, writing `asked/**` asks the approver,
 * which allows `asked/ok*` and denies the rest. `approvals` records what it was asked.
 */
export interface AdapterFixture {
  ws: TempTree;
  rt: Runtime;
  session: Session;
  approvals: ApprovalRequest[];
  exists(relative: string): boolean;
  close(): Promise<void>;
}

export async function openFixture(prefix: string): Promise<AdapterFixture> {
  const ws = makeTempTree(prefix, { 'notes.md': 'hello from notes\n', 'private/key.txt': 'secret\n' });
  const approvals: ApprovalRequest[] = [];
  const rt = await createRuntime({
    sandbox: 'off',
    idleWorkers: 1,
    approve: (request) => {
      approvals.push(request);
      return request.paths?.every((p) => p.startsWith('asked/ok')) === true ? 'allow' : 'deny';
    },
  });
  const session = await rt.openSession({
    workspaceRoot: ws.root,
    tools: ['read_file', 'write_file', 'grep'],
    permissions: { read_file: { deny: ['private/**'] }, write_file: { ask: ['asked/**'] } },
  });
  return {
    ws,
    rt,
    session,
    approvals,
    exists: (relative) => fs.existsSync(ws.at(relative)),
    close: async () => {
      await rt.close();
      ws.cleanup();
    },
  };
}

/** An AbortSignal that has already fired. */
export function abortedSignal(): AbortSignal {
  const controller = new AbortController();
  controller.abort();
  return controller.signal;
}
