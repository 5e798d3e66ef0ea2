import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZYGOTE_UNDER_TEST } from '../helpers/run-sandboxed.js';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { runZygoteSelfTest } from '../../runtime/sandbox/run-self-test.js';
import { hasBwrap } from '../helpers/has-bwrap.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// Standing sandboxes cost memory (about 49 MB RSS each): a runtime caps how many live at once, and closes one that
// sits idle. Past the cap, a session's commands run in a bubblewrap each: as sandboxed, never weaker.
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!hasBwrap)('the runtime caps its session sandboxes and closes idle ones', () => {
  let rt: Runtime;
  let a: TempTree;
  let b: TempTree;
  beforeAll(async () => {
    rt = await createRuntime({ idleWorkers: 0, sandboxZygote: { ...ZYGOTE_UNDER_TEST, max: 1, idleMs: 400 } });
    // Probes run from script files: the static check refuses /proc paths on the command line.
    const probes = { 'pid2.sh': 'ps -o args= -p 2\ncut -d" " -f22 /proc/2/stat\n', 'confined.sh': 'ps -o args= -p 2\ngrep -E "^(Seccomp|NoNewPrivs):" /proc/self/status\n', 'start.sh': 'cut -d" " -f22 /proc/2/stat\n' };
    a = makeTempTree('tw-zslots-a', probes);
    b = makeTempTree('tw-zslots-b', probes);
  });
  afterAll(async () => {
    await rt.close();
    a.cleanup();
    b.cleanup();
  });

  it('past max, another session runs sandboxed commands without a zygote; an idle zygote is closed and comes back', async () => {
    const first = await rt.openSession({ workspaceRoot: a.root, tools: ['bash'], sandbox: 'required' });
    const second = await rt.openSession({ workspaceRoot: b.root, tools: ['bash'], sandbox: 'required' });
    // A long command holds the first session's zygote while the second session runs.
    const holding = first.call('bash', { command: 'sleep 1.5; sh pid2.sh' });
    for (let i = 0; i < 100 && rt.stats().zygotes === 0; i++) await pause(20);
    expect(rt.stats().zygotes).toBe(1);
    const other = await second.call('bash', { command: 'sh confined.sh' });
    expect(other.isError, JSON.stringify(other)).toBeFalsy();
    const text = String(other.structuredContent?.['stdout']);
    // A bwrap of its own: pid 2 is not a zygote, and the same confinement holds.
    expect(text).not.toContain('zygote-main');
    expect(text).toMatch(/Seccomp:\s+2/);
    expect(text).toMatch(/NoNewPrivs:\s+1/);
    expect(rt.stats().zygotes).toBe(1);
    const held = await holding;
    expect(String(held.structuredContent?.['stdout'])).toContain('zygote-main');
    // Idle past idleMs: the zygote is closed and its slot freed.
    for (let i = 0; i < 100 && rt.stats().zygotes > 0; i++) await pause(50);
    expect(rt.stats().zygotes).toBe(0);
    // The next command starts a fresh one (another start time), in whichever session asks first.
    const again = String((await second.call('bash', { command: 'sh pid2.sh' })).structuredContent?.['stdout']);
    expect(again).toContain('zygote-main');
    const startOf = (out: string): string => out.trim().split('\n').at(-1) ?? '';
    expect(startOf(again)).not.toBe(startOf(String(held.structuredContent?.['stdout'])));
    await Promise.all([first.close(), second.close()]);
    expect(rt.stats().zygotes).toBe(0);
  }, 30_000);

  it("by default a zygote is used exactly where the self-test proves a command cannot write its memory", async () => {
    const sealed = (await runZygoteSelfTest(await detectSandbox())).find((c) => c.property === 'zygote-memory-sealed')?.passed;
    const plain = await createRuntime({ idleWorkers: 0 });
    try {
      const s = await plain.openSession({ workspaceRoot: a.root, tools: ['bash'], sandbox: 'required' });
      const out = String((await s.call('bash', { command: 'sh pid2.sh' })).structuredContent?.['stdout']);
      expect(out.includes('zygote-main'), out).toBe(sealed === true);
      await s.close();
    } finally {
      await plain.close();
    }
  }, 30_000);

  it('near miss: within idleMs a session keeps its zygote between commands', async () => {
    const own = await createRuntime({ idleWorkers: 0, sandboxZygote: ZYGOTE_UNDER_TEST });
    try {
      const s = await own.openSession({ workspaceRoot: a.root, tools: ['bash'], sandbox: 'required' });
      const start = 'sh start.sh';
      const one = String((await s.call('bash', { command: start })).structuredContent?.['stdout']);
      await pause(500);
      const two = String((await s.call('bash', { command: start })).structuredContent?.['stdout']);
      expect(one.trim()).not.toBe('');
      expect(two).toBe(one);
      expect(own.stats().zygotes).toBe(1);
      await s.close();
    } finally {
      await own.close();
    }
  }, 30_000);
});
