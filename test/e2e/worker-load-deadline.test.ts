import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

let rt: Runtime;
let ws: TempTree;

beforeAll(async () => {
  rt = await createRuntime({ toolModules: ['test/fixtures/tools/slow-to-load.mjs'], idleWorkers: 0 });
  ws = makeTempTree('tw-load-deadline', { 'a.txt': 'content\n' });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

describe("a call's deadline and a fresh worker's module load", () => {
  it('does not count the load: a 1 s module load under a 400 ms toolTimeoutMs still answers', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['loaded_slowly'], limits: { toolTimeoutMs: 400 } });
    const result = await s.call('loaded_slowly');
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe('ok');
    await s.close();
  });

  it('gives broker work the whole of its time: a ctx read right after the load is not past the deadline', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['reads_once_loaded'], limits: { toolTimeoutMs: 400 } });
    const result = await s.call('reads_once_loaded', { path: 'a.txt' });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toContain('content');
    await s.close();
  });

  it("counts the tool's own time from when its worker is ready: 600 ms of work under 900 ms after a 1 s load", async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['takes_a_while'], limits: { toolTimeoutMs: 900 } });
    expect(textOf(await s.call('takes_a_while'))).toBe('done');
    await s.close();
  });

  it('an abort during the load still ends the call at once', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['loaded_slowly'], limits: { toolTimeoutMs: 400 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    expect(await s.call('loaded_slowly', {}, { signal: controller.signal })).toMatchObject({ isError: true, code: 'ABORTED' });
    expect(Date.now() - started).toBeLessThan(900);
    await s.close();
  });
});
