import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session, type SessionOptions } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// Build first: the runtime starts dist/workers/process-host.js.
const MODULES = ['test/fixtures/tools/basic-tools.mjs', 'test/isolation/fixtures/direct-tools.mjs'];
const TOOLS = ['shout', 'read_any', 'read_file', 'read_direct', 'write_direct', 'spawn_direct', 'worker_direct', 'who_am_i', 'hang', 'crash', 'pollute_broker'];

let rt: Runtime;
let ws: TempTree;
let isolated: Session;

function open(options: SessionOptions): Promise<Session> {
  return rt.openSession({ workspaceRoot: ws.root, tools: TOOLS, toolModules: MODULES, ...options });
}

async function pidOf(session: Session): Promise<number> {
  const result = await session.call('who_am_i');
  expect(result.isError).toBeUndefined();
  return (result.structuredContent as { pid: number }).pid;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

beforeAll(async () => {
  // The permission model alone: the bubblewrap layer around isolated processes is tested in sandboxed-process.test.ts.
  // Without bubblewrap the process shares the host's pid namespace, which the runtime refuses unless told otherwise.
  rt = await createRuntime({ idleWorkers: 0, sandbox: 'off', allowSharedPidNamespace: true });
  ws = makeTempTree('tw-iso', { 'notes/a.txt': 'hello isolation\n' });
  isolated = await open({ isolation: 'process' });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

describe("ctx.fs gives the same answers with isolation: 'process' as in a worker", () => {
  const CASES = [
    { rule: 'a read and a write inside the workspace are allowed', tool: 'shout', args: { path: 'notes/a.txt', out: 'notes/A.txt' }, code: undefined },
    { rule: 'a read outside the workspace is refused', tool: 'read_any', args: { path: '/etc/hostname' }, code: 'TOOL_FAILED', says: 'NOT_READABLE' },
    { rule: 'a read through .. is refused', tool: 'read_any', args: { path: '../../etc/hostname' }, code: 'TOOL_FAILED', says: 'NOT_READABLE' },
    { rule: 'a write outside the workspace is refused', tool: 'shout', args: { path: 'notes/a.txt', out: '../escaped.txt' }, code: 'TOOL_FAILED' },
  ];

  it.each(CASES)('$rule', async ({ tool, args, code, says }) => {
    // direct-tools.mjs imports node:module, which a worker's import hooks refuse: compare with the shared module only.
    const inWorker = await rt.openSession({ workspaceRoot: ws.root, tools: ['shout', 'read_any'], toolModules: [MODULES[0]!] });
    try {
      const [fromProcess, fromWorker] = [await isolated.call(tool, args), await inWorker.call(tool, args)];
      expect(fromProcess.code).toBe(code);
      expect(fromProcess.isError).toBe(fromWorker.isError);
      expect(fromProcess.code).toBe(fromWorker.code);
      if (says) expect(textOf(fromProcess)).toContain(says);
      if (code === undefined) expect(fromProcess.structuredContent).toEqual({ ...(fromWorker.structuredContent as object), session: isolated.id });
    } finally {
      await inWorker.close();
    }
    expect(fs.existsSync(ws.at('../escaped.txt'))).toBe(false);
  });
});

describe("Node's permission model stops tool code that reaches past ctx", () => {
  it('runs the tool host in another process, with no fs write access and an empty environment', async () => {
    const result = await isolated.call('who_am_i');
    expect(result.structuredContent).toMatchObject({ permissionModel: true, canWrite: false, envKeys: [], fetch: 'undefined' });
    expect((result.structuredContent as { pid: number }).pid).not.toBe(process.pid);
  });

  it.each(['require', 'getBuiltinModule', 'import'])('a direct read of /etc/hostname with fs from %s is denied', async (via) => {
    const result = await isolated.call('read_direct', { path: '/etc/hostname', via });
    expect(result).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(result)).toContain('ERR_ACCESS_DENIED');
  });

  it('a direct read of a workspace file is denied too: only the broker reads the workspace', async () => {
    const result = await isolated.call('read_direct', { path: ws.at('notes/a.txt'), via: 'require' });
    expect(textOf(result)).toContain('ERR_ACCESS_DENIED');
    expect(textOf(result)).not.toContain('hello isolation');
  });

  it('a direct write into the workspace is denied and leaves nothing', async () => {
    const result = await isolated.call('write_direct', { path: ws.at('direct.txt') });
    expect(textOf(result)).toContain('ERR_ACCESS_DENIED');
    expect(fs.existsSync(ws.at('direct.txt'))).toBe(false);
  });

  it('starting a child process is denied and runs nothing', async () => {
    const result = await isolated.call('spawn_direct', { marker: ws.at('spawned') });
    expect(textOf(result)).toContain('ERR_ACCESS_DENIED');
    expect(fs.existsSync(ws.at('spawned'))).toBe(false);
  });

  it('a forged comlink SET sent straight to the broker changes nothing in the runtime', async () => {
    expect(textOf(await isolated.call('pollute_broker'))).toBe('sent');
    expect(({} as Record<string, unknown>).tw_polluted).toBeUndefined();
  });

  it('starting a worker thread is denied', async () => {
    expect(textOf(await isolated.call('worker_direct'))).toContain('ERR_ACCESS_DENIED');
  });
});

describe('lifecycle of the tool process', () => {
  it('kills a hanging tool with TIMEOUT and serves the next call from a new process', async () => {
    const session = await open({ isolation: 'process', limits: { toolTimeoutMs: 3000 } });
    try {
      const before = await pidOf(session);
      expect(await session.call('hang')).toMatchObject({ isError: true, code: 'TIMEOUT' });
      expect(isRunning(before)).toBe(false);
      const after = await pidOf(session);
      expect(after).not.toBe(before);
    } finally {
      await session.close();
    }
  });

  it('reports a tool that ends its process as WORKER_CRASHED and recovers', async () => {
    const before = await pidOf(isolated);
    expect(await isolated.call('crash')).toMatchObject({ isError: true, code: 'WORKER_CRASHED' });
    expect(isRunning(before)).toBe(false);
    expect(await pidOf(isolated)).not.toBe(before);
  });

  it('a session closed as soon as it opened (before its bind lands) ends quietly, worker and process alike', async () => {
    const thrown: unknown[] = [];
    const onUncaught = (error: unknown): void => void thrown.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      for (let round = 0; round < 3; round += 1) {
        for (const isolation of ['worker', 'process'] as const) await (await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file'], isolation })).close();
      }
      // The bind that would have gone to a killed process is given a turn to fail.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(thrown).toEqual([]);
  });

  it('leaves no process behind when the session closes', async () => {
    const session = await open({ isolation: 'process' });
    const pid = await pidOf(session);
    expect(isRunning(pid)).toBe(true);
    await session.close();
    expect(isRunning(pid)).toBe(false);
  });
});

describe('probing tool modules', () => {
  const ISOLATED_ONLY = 'test/isolation/fixtures/isolated-only.mjs';

  it("loads a process-isolated session's modules only in isolated processes, the probe included", async () => {
    const session = await rt.openSession({ workspaceRoot: ws.root, tools: ['isolated_echo'], toolModules: [ISOLATED_ONLY], isolation: 'process' });
    try {
      expect((await session.listTools()).map((tool) => tool.name)).toEqual(['isolated_echo']);
      expect(textOf(await session.call('isolated_echo'))).toBe('isolated');
    } finally {
      await session.close();
    }
  });

  it('the same module fails to load in a worker, where it would share the runtime process', async () => {
    await expect(rt.openSession({ workspaceRoot: ws.root, tools: ['isolated_echo'], toolModules: [ISOLATED_ONLY] })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('outside an isolated tool process'),
    });
  });
});
