import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

const CANCEL_SERVER = fileURLToPath(new URL('../fixtures/mcp/cancel-server.mjs', import.meta.url));

// A session's MCP call that is aborted or runs past its deadline is cancelled upstream too: the SDK client sends
// notifications/cancelled, which the cancellation test server counts.
let rt: Runtime;
let ws: TempTree;
beforeAll(async () => {
  ws = makeTempTree('tw-mcp-cancel', {});
  rt = await createRuntime({ idleWorkers: 0, mcpServers: { t: { command: process.execPath, args: [CANCEL_SERVER] } } });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

async function cancelledCount(s: Awaited<ReturnType<Runtime['openSession']>>): Promise<number> {
  return Number(textOf(await s.call('mcp__t__cancelled_count')));
}

describe('MCP calls end upstream', () => {
  it.each([
    ['an abort', 'ABORTED', 30_000, () => AbortSignal.timeout(300)],
    ['the deadline', 'TIMEOUT', 500, () => undefined],
  ])('%s ends the call with %s and cancels the request upstream', async (_name, code, toolTimeoutMs, signal) => {
    const s = await rt.openSession({ workspaceRoot: ws.root, mcpServers: ['t'], limits: { toolTimeoutMs } });
    const before = await cancelledCount(s);
    const given = signal();
    const started = performance.now();
    const result = await s.call('mcp__t__until_cancelled', {}, given ? { signal: given } : {});
    expect(result).toMatchObject({ isError: true, code });
    expect(performance.now() - started).toBeLessThan(3000);
    let after = before;
    for (let i = 0; i < 100 && after === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await cancelledCount(s);
    }
    expect(after).toBe(before + 1);
    await s.close();
  });
});
