import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type ApprovalRequest, type Runtime, type Session, type SessionOptions, type ToolResult } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// Deadlines are owned by the work and calls can be cancelled: a timeout, an abort or a close stops exactly the
// call's own work (its process group, its walk, its approver's wait), never the session's background processes.
const TOOLS = fileURLToPath(new URL('../fixtures/tools/basic-tools.mjs', import.meta.url));

let rt: Runtime;
/** With host tool modules, which a fresh worker loads before its first call (seconds on a loaded machine). */
let hostRt: Runtime;
let ws: TempTree;

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
  hostRt = await createRuntime({ idleWorkers: 1, toolModules: [TOOLS] });
  ws = makeTempTree('tw-deadlines', { 'src/evil.txt': `${'a'.repeat(40)}b\n`, 'src/a.ts': 'const a = 1;\n' });
});
afterAll(async () => {
  await Promise.all([rt.close(), hostRt.close()]);
  ws.cleanup();
  for (const line of processesWith(MARKER_PREFIX)) {
    try {
      process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const MARKER_PREFIX = `700.${process.pid}`;
const marker = (): string => `${MARKER_PREFIX}${Math.floor(Math.random() * 1e9)}`;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Host processes whose command line contains `needle`. */
function processesWith(needle: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(needle) && !line.includes('ps -eo'));
}

/** Waits until a process carrying `needle` runs. */
async function running(needle: string): Promise<void> {
  for (let i = 0; i < 200 && processesWith(needle).length === 0; i++) await pause(25);
  expect(processesWith(needle).length).toBeGreaterThan(0);
}

/** Polls for up to `ms` until nothing carries `needle`; returns the survivors. */
async function survivorsAfter(needle: string, ms: number): Promise<string[]> {
  const until = Date.now() + ms;
  while (processesWith(needle).length > 0 && Date.now() < until) await pause(20);
  return processesWith(needle);
}

async function open(options: SessionOptions, runtime: Runtime = rt): Promise<Session> {
  return runtime.openSession({ workspaceRoot: ws.root, sandbox: 'off', ...options });
}

/** Starts a background `sleep` carrying a fresh marker and returns the marker. */
async function background(s: Session): Promise<string> {
  const m = marker();
  const started = await s.call('bash', { action: 'start', command: `sleep ${m}` });
  expect(started.isError, textOf(started)).toBeFalsy();
  await running(`sleep ${m}`);
  return m;
}

const bgAlive = (m: string): boolean => processesWith(`sleep ${m}`).length > 0;

describe('deadlines are owned by the work', () => {
  it('a foreground timeout (toolTimeoutMs = commandTimeoutMs) is the command\'s TIMEOUT, and background processes survive it', async () => {
    const s = await open({ tools: ['bash'], limits: { toolTimeoutMs: 800, commandTimeoutMs: 800 } });
    const bg = await background(s);
    const m = marker();
    const result = await s.call('bash', { command: `sleep ${m}` });
    expect(result).toMatchObject({ isError: true, code: 'TIMEOUT', structuredContent: { timedOut: true } });
    expect(textOf(result)).not.toContain('worker was replaced');
    expect(await survivorsAfter(`sleep ${m}`, 1000)).toEqual([]);
    expect(bgAlive(bg)).toBe(true);
    await s.close();
    expect(await survivorsAfter(bg, 1000)).toEqual([]);
  });

  it('leaves no command running after a TIMEOUT when toolTimeoutMs is below commandTimeoutMs', async () => {
    const s = await open({ tools: ['bash'], limits: { toolTimeoutMs: 600, commandTimeoutMs: 20_000 } });
    const bg = await background(s);
    const m = marker();
    const started = performance.now();
    const result = await s.call('bash', { command: `sleep ${m}` });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result).toMatchObject({ isError: true, code: 'TIMEOUT' });
    expect(textOf(result)).toContain('toolTimeoutMs=600');
    // Killed by the code that spawned it, before the result was given.
    expect(await survivorsAfter(`sleep ${m}`, 300)).toEqual([]);
    expect(bgAlive(bg)).toBe(true);
    await s.close();
  });

  it("a slow walk ends with the walk's TIMEOUT, and background processes survive it", async () => {
    const s = await open({ tools: ['bash', 'grep'], limits: { toolTimeoutMs: 2000 } });
    const bg = await background(s);
    const result = await s.call('grep', { pattern: '(a+)+$' });
    expect(result).toMatchObject({ isError: true, code: 'TIMEOUT' });
    // The walk's own message, given through the worker: not the worker's "was replaced".
    expect(textOf(result)).toContain('walk time limit');
    expect(bgAlive(bg)).toBe(true);
    expect(textOf(await s.call('grep', { pattern: 'const a' }))).toContain('src/a.ts');
    await s.close();
  });

  it('a host tool that overruns (an endless loop) replaces the worker, and background processes survive it', async () => {
    const s = await open({ tools: ['bash', 'hang', 'noop'], limits: { toolTimeoutMs: 600 } }, hostRt);
    const bg = await background(s);
    const result = await s.call('hang');
    expect(result).toMatchObject({ isError: true, code: 'TIMEOUT' });
    expect(textOf(result)).toContain('worker was replaced');
    await pause(200);
    expect(bgAlive(bg)).toBe(true);
    expect(textOf(await s.call('bash', { action: 'list' }))).toContain('[running]');
    await s.close();
    expect(await survivorsAfter(bg, 1000)).toEqual([]);
  });

  // The deadline is generous: a fresh worker loads its host tool modules first, which took over 10 s on two loaded
  // cores while the main thread's shell parser (wasm) was tiering up.
  it('a host tool whose ctx.exec runs past the deadline has its command killed, and background processes survive it', async () => {
    const s = await open({ tools: ['bash', 'run_command', 'noop'], limits: { toolTimeoutMs: 4_000, commandTimeoutMs: 60_000 } }, hostRt);
    expect((await s.call('noop')).isError).toBeFalsy();
    const bg = await background(s);
    const m = marker();
    const started = performance.now();
    const pending = s.call('run_command', { command: `sleep ${m}` });
    await running(`sleep ${m}`);
    const result = await pending;
    expect(result.isError).toBe(true);
    // The command's own TIMEOUT at the call's deadline, passed through the tool: the worker was not replaced.
    expect(textOf(result)).toContain("its call's deadline (toolTimeoutMs=4000)");
    expect(performance.now() - started).toBeLessThan(4_000 + 3000);
    expect(await survivorsAfter(`sleep ${m}`, 1000)).toEqual([]);
    expect(bgAlive(bg)).toBe(true);
    await s.close();
  }, 60_000);
});

describe('cancellation and close end in-flight calls and kill their processes', () => {
  type Ender = 'abort' | 'session.close' | 'runtime.close';
  it.each<[Ender, string]>([
    ['abort', 'ABORTED'],
    ['session.close', 'SESSION_CLOSED'],
    ['runtime.close', 'SESSION_CLOSED'],
  ])('%s ends an in-flight exec with %s and kills its group within 1 s', async (ender, code) => {
    const own = ender === 'runtime.close' ? await createRuntime({ idleWorkers: 0 }) : rt;
    const s = await open({ tools: ['bash'] }, own);
    const controller = new AbortController();
    const m = marker();
    const pending = s.call('bash', { command: `sleep ${m} & sleep ${m}; wait` }, { signal: controller.signal });
    await running(`sleep ${m}`);
    const ended = performance.now();
    if (ender === 'abort') controller.abort();
    else if (ender === 'session.close') void s.close();
    else void own.close();
    const result: ToolResult = await pending;
    expect(result).toMatchObject({ isError: true, code });
    expect(await survivorsAfter(`sleep ${m}`, 1000)).toEqual([]);
    expect(performance.now() - ended).toBeLessThan(1500);
    await s.close();
  });

  it('an aborted exec leaves the session usable and its background processes running', async () => {
    const s = await open({ tools: ['bash'] });
    const bg = await background(s);
    const m = marker();
    const result = await s.call('bash', { command: `sleep ${m}` }, { signal: AbortSignal.timeout(300) });
    expect(result).toMatchObject({ isError: true, code: 'ABORTED' });
    expect(await survivorsAfter(`sleep ${m}`, 1000)).toEqual([]);
    expect(bgAlive(bg)).toBe(true);
    expect((await s.call('bash', { command: 'echo again' })).structuredContent).toMatchObject({ stdout: 'again\n' });
    await s.close();
  });

  it('refuses an already aborted signal without running anything, and a signal that is not one', async () => {
    const s = await open({ tools: ['read_file'] });
    expect(await s.call('read_file', { path: 'src/a.ts' }, { signal: AbortSignal.abort() })).toMatchObject({ code: 'ABORTED' });
    expect(await s.call('read_file', { path: 'src/a.ts' }, { signal: 'stop' as never })).toMatchObject({ code: 'INVALID_ARGS' });
    expect(textOf(await s.call('read_file', { path: 'src/a.ts' }))).toContain('const a = 1;');
    await s.close();
  });

  it('an aborted walk ends with ABORTED and the next one runs', async () => {
    const s = await open({ tools: ['grep'], limits: { toolTimeoutMs: 10_000 } });
    const started = performance.now();
    const result = await s.call('grep', { pattern: '(a+)+$' }, { signal: AbortSignal.timeout(300) });
    expect(result).toMatchObject({ isError: true, code: 'ABORTED' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(textOf(await s.call('grep', { pattern: 'const a' }))).toContain('src/a.ts');
    await s.close();
  });
});

describe('an approver that never answers', () => {
  type Ender = 'deadline' | 'abort' | 'close';
  const CASES: [Ender, string, string, Record<string, unknown>][] = [];
  for (const [ender, code] of [['deadline', 'TIMEOUT'], ['abort', 'ABORTED'], ['close', 'SESSION_CLOSED']] as const) {
    CASES.push([ender, code, 'read_file', { path: 'src/a.ts' }]);
    CASES.push([ender, code, 'bash', { command: 'echo never' }]);
  }
  it.each(CASES)('is ended by the %s (%s) for %s, and its request signal aborts', async (ender, code, tool, args) => {
    const asked: ApprovalRequest[] = [];
    const own = await createRuntime({ idleWorkers: 0, approve: (request) => {
      asked.push(request);
      return new Promise(() => undefined);
    } });
    const s = await open({ tools: [tool], permissions: { [tool]: 'ask' }, limits: { toolTimeoutMs: ender === 'deadline' ? 400 : 30_000 } }, own);
    const controller = new AbortController();
    const pending = s.call(tool, args, { signal: controller.signal });
    for (let i = 0; i < 100 && asked.length === 0; i++) await pause(10);
    expect(asked).toHaveLength(1);
    if (ender === 'abort') controller.abort();
    if (ender === 'close') void s.close();
    expect(await pending).toMatchObject({ isError: true, code });
    expect(asked[0]!.signal.aborted).toBe(true);
    expect(asked[0]!.signal.reason).toMatchObject({ code });
    await own.close();
  });

  it('for bash, the approval wait does not count against the command\'s own timeout', async () => {
    const own = await createRuntime({ idleWorkers: 0, approve: () => new Promise((resolve) => setTimeout(() => resolve('allow'), 700)) });
    const s = await open({ tools: ['bash'], permissions: { bash: 'ask' }, limits: { toolTimeoutMs: 10_000, commandTimeoutMs: 600 } }, own);
    const result = await s.call('bash', { command: 'sleep 0.3; echo ran' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ stdout: 'ran\n' });
    await own.close();
  });
});
