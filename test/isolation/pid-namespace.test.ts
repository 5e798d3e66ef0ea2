import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { checkPidNamespace } from '../../src/isolation/pid-namespace.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// isolation 'process' without a pid namespace of its own fails closed: Node's permission model does not cover
// process.kill, so tool code could SIGKILL any host process of the runtime's user.
describe('checkPidNamespace', () => {
  it.each([
    ['the sandbox is off', false, 'off', /the sandbox is 'off'/],
    ['no bubblewrap in auto mode', false, 'auto', /no OS sandbox \(bubblewrap\) is available/],
  ])('refuses when %s, naming why and the opt-in', (_name, inBubblewrap, mode, why) => {
    let caught: unknown;
    try {
      checkPidNamespace(inBubblewrap, mode, false);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(why) });
    expect((caught as Error).message).toContain('allowSharedPidNamespace');
    expect((caught as Error).message).toContain('SIGKILL');
  });

  it.each([
    ['inside bubblewrap (--unshare-pid)', true, 'auto', false],
    ['inside bubblewrap in required mode', true, 'required', false],
    ['the sandbox off with the explicit opt-in', false, 'off', true],
    ['no bubblewrap with the explicit opt-in', false, 'auto', true],
  ])('allows %s', (_name, inBubblewrap, mode, allowShared) => {
    expect(() => checkPidNamespace(inBubblewrap, mode, allowShared)).not.toThrow();
  });
});

describe("openSession with isolation 'process' and the sandbox off", () => {
  let ws: TempTree;
  let refusing: Runtime;
  beforeAll(async () => {
    ws = makeTempTree('tw-pidns', { 'a.txt': 'a\n' });
    refusing = await createRuntime({ idleWorkers: 0, sandbox: 'off' });
  });
  afterAll(async () => {
    await refusing.close();
    ws.cleanup();
  });

  it('is refused with INVALID_OPTIONS naming the missing pid namespace, and nothing is left open', async () => {
    await expect(refusing.openSession({ workspaceRoot: ws.root, tools: ['read_file'], isolation: 'process' })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringMatching(/isolation 'process' refused: the sandbox is 'off'.*pid namespace/),
    });
    expect(refusing.sessionCount).toBe(0);
    // The same runtime still opens a worker session.
    const s = await refusing.openSession({ workspaceRoot: ws.root, tools: ['read_file'] });
    expect((await s.call('read_file', { path: 'a.txt' })).isError).toBeUndefined();
    await s.close();
  });

  it('is refused for a session asking for the sandbox off in a runtime whose default is auto', async () => {
    const rt = await createRuntime({ idleWorkers: 0 });
    await expect(rt.openSession({ workspaceRoot: ws.root, tools: ['read_file'], isolation: 'process', sandbox: 'off' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await rt.close();
  });

  // An isolated process reads its code under Node's permission model, which refuses a symlinked node_modules (as in
  // a worktree sharing another checkout's): there it cannot start at all, opt-in or not.
  const linkedModules = fs.lstatSync(fileURLToPath(new URL('../../node_modules', import.meta.url))).isSymbolicLink();
  it.skipIf(linkedModules)('opens with the explicit opt-in allowSharedPidNamespace: true', async () => {
    const rt = await createRuntime({ idleWorkers: 0, sandbox: 'off', allowSharedPidNamespace: true });
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file'], isolation: 'process' });
    expect((await s.call('read_file', { path: 'a.txt' })).isError).toBeUndefined();
    await rt.close();
  });

  it.each([['yes'], [1]])('refuses a non-boolean allowSharedPidNamespace (%s)', async (value) => {
    await expect(createRuntime({ allowSharedPidNamespace: value as never })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('allowSharedPidNamespace') });
  });
});
