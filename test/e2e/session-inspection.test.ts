import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// rt.inspectSession: the operator's view a dashboard uses, through the public API, with real processes.
let rt: Runtime;
let ws: TempTree;
beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
  ws = makeTempTree('tw-inspect', {});
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

describe('rt.inspectSession', () => {
  it("lists a session's processes with their output, stops one, and counts bytes written", async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash', 'write_file'], sandbox: 'off', limits: { writeQuotaBytes: 1000 } });
    const view = rt.inspectSession(s.id)!;
    expect(view.processes()).toEqual([]);
    expect(() => view.processTail('p1', 100)).toThrow(expect.objectContaining({ code: 'PROCESS_NOT_FOUND' }));
    const started = await s.call('bash', { action: 'start', command: 'printf "%s\\n" first-line second-line; sleep 60' });
    const id = (started.structuredContent as { processId: string }).processId;
    await expect.poll(() => view.processTail(id, 1_000)).toContain('second-line');
    expect(view.processTail(id, 12)).toBe('second-line\n');
    expect(view.processes()).toMatchObject([{ processId: id, status: 'running' }]);
    expect(await view.stopProcess(id)).toMatchObject({ processId: id, status: 'killed' });
    await expect(view.stopProcess('nope')).rejects.toMatchObject({ code: 'PROCESS_NOT_FOUND' });
    expect(view.writeBytesUsed()).toBe(0);
    await s.call('write_file', { path: 'a.txt', content: 'x'.repeat(40) });
    expect(view.writeBytesUsed()).toBe(40);
    await s.close();
    expect(rt.inspectSession(s.id)).toBeUndefined();
  });

  it('an unknown session id is undefined', () => {
    expect(rt.inspectSession('no-such-session')).toBeUndefined();
  });
});
