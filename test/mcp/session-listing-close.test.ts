import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';
import { childPids, HOSTILE_SERVER, hostileServer } from './helpers.js';

// A hostile server whose first listing pages forever (a limit far away stands for a server just under it): the
// session that asked for it closes, and the paging must end then, not when the limit is reached.
const FAR = { maxPages: 1_000_000, maxTools: 1_000_000 };
let ws: TempTree;
beforeAll(() => {
  ws = makeTempTree('tw-mcp-list-close', {});
});
afterAll(() => ws.cleanup());

async function pagesServed(session: Session): Promise<number> {
  return Number(textOf(await session.call('mcp__shared__pages_served')));
}

describe('closing a session ends its MCP listing', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await createRuntime({
      idleWorkers: 0,
      sandbox: 'off',
      mcpServers: { shared: hostileServer(['--endless-listings=1', '--tools-per-page=0'], { limits: FAR }), mine: hostileServer(['--endless', '--tools-per-page=0'], { perUser: true, limits: FAR }) },
    });
  });
  afterAll(async () => {
    await rt.close();
  });

  it('of a shared server: the listing settles and asks for no further page, while the server keeps serving others', async () => {
    const closing = await rt.openSession({ workspaceRoot: ws.root, mcpServers: ['shared'] });
    const other = await rt.openSession({ workspaceRoot: ws.root, mcpServers: ['shared'] });
    const listing = closing.listTools();
    // The other session's first call lists once (an honest listing) and then sees the endless one advance.
    while ((await pagesServed(other)) < 10);
    await closing.close();
    await listing.catch(() => undefined);
    const settled = await pagesServed(other);
    expect(await pagesServed(other)).toBe(settled);
    expect(await pagesServed(other)).toBe(settled);
    await other.close();
  });

  it('of a per-user server: its last session closing ends the listing and the server process', async () => {
    const session = await rt.openSession({ workspaceRoot: ws.root, user: 'alice', mcpServers: ['mine'] });
    const listing = session.listTools();
    const perUserServer = `${HOSTILE_SERVER}\u0000--endless\u0000`;
    await expect.poll(() => childPids(perUserServer).length).toBe(1);
    await session.close();
    await listing.catch(() => undefined);
    expect(childPids(perUserServer)).toEqual([]);
  });
});
