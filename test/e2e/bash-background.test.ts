import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session, type ToolResult } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// Background processes through the public API: lifecycle, paging, limits, and no orphans whatever ends the session.
const TOOLS = fileURLToPath(new URL('../fixtures/tools/basic-tools.mjs', import.meta.url));
const MODES = ['off', 'auto'] as const;

let rt: Runtime;
let ws: TempTree;

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1, toolModules: [TOOLS] });
  ws = makeTempTree('tw-bash-bg', {});
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
  // Hygiene when a test above failed: nothing a failed assertion left behind may outlive the suite.
  for (const line of processesWith(MARKER_PREFIX)) {
    try {
      process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** Host processes whose command line contains `marker` (ps sees through bwrap's pid namespace). */
function processesWith(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(marker));
}

/** Polls until no process carries `marker` (killed members are reaped asynchronously); returns the survivors. */
async function survivorsOf(marker: string): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    if (processesWith(marker).length === 0) return [];
    await pause(50);
  }
  return processesWith(marker);
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const MARKER_PREFIX = `600.${process.pid}`;
const marker = (): string => `${MARKER_PREFIX}${Math.floor(Math.random() * 1e9)}`;
const field = <T>(result: ToolResult, name: string): T => result.structuredContent?.[name] as T;

async function start(s: Session, command: string): Promise<string> {
  const result = await s.call('bash', { action: 'start', command });
  expect(result.isError, textOf(result)).toBeFalsy();
  return field<string>(result, 'processId');
}

/** Polls logs until they contain `needle`. */
async function logsUntil(s: Session, processId: string, needle: string): Promise<string> {
  let text = '';
  for (let i = 0; i < 200 && !text.includes(needle); i++) {
    if (i > 0) await pause(25);
    text = field<string>(await s.call('bash', { action: 'logs', processId }), 'text');
  }
  return text;
}

async function statusUntilEnded(s: Session, processId: string): Promise<ToolResult> {
  let result = await s.call('bash', { action: 'status', processId });
  for (let i = 0; i < 200 && field(result, 'status') === 'running'; i++) {
    await pause(25);
    result = await s.call('bash', { action: 'status', processId });
  }
  return result;
}

describe.each(MODES)('background processes with sandbox %s', (sandbox) => {
  let s: Session;
  beforeAll(async () => {
    s = await rt.openSession({
      workspaceRoot: ws.root,
      tools: ['bash'],
      sandbox,
      limits: { processStopGraceMs: 300, maxProcesses: 2 },
      // A trap's command string is not checked statically, so the whole command asks by default; rules let these through.
      permissions: { bash: { allow: ['trap *', 'echo *', 'sleep *', 'wait'] } },
    });
  });
  afterAll(() => s.close());

  it('starts cat, takes stdin, reports status, lists, and stops', async () => {
    const processId = await start(s, 'cat');
    const status = await s.call('bash', { action: 'status', processId });
    expect(status.structuredContent).toMatchObject({ processId, command: 'cat', status: 'running', exitCode: null, endedAt: null });
    expect(field<number>(status, 'pid')).toBeGreaterThan(1);
    expect(processesWith(String(field<number>(status, 'pid'))).length).toBeGreaterThan(0);
    const wrote = await s.call('bash', { action: 'write', processId, input: 'hello\nworld\n' });
    expect(wrote.isError).toBeFalsy();
    expect(await logsUntil(s, processId, 'world\n')).toBe('hello\nworld\n');
    const list = await s.call('bash', { action: 'list' });
    expect(field<{ processId: string }[]>(list, 'processes').map((p) => p.processId)).toContain(processId);
    const stopped = await s.call('bash', { action: 'stop', processId });
    expect(stopped.structuredContent).toMatchObject({ processId, status: 'killed' });
    expect(field(stopped, 'endedAt')).toEqual(expect.any(String));
    const late = await s.call('bash', { action: 'write', processId, input: 'x' });
    expect(late).toMatchObject({ isError: true, code: 'PROCESS_EXITED' });
  });

  it('reports a process that exits by itself with its exit code', async () => {
    const processId = await start(s, 'echo done; exit 4');
    const ended = await statusUntilEnded(s, processId);
    expect(ended.structuredContent).toMatchObject({ status: 'exited', exitCode: 4 });
    expect(await logsUntil(s, processId, 'done')).toBe('done\n');
  });

  it('stops a process that ignores SIGTERM: SIGTERM first, SIGKILL after the grace', async () => {
    const m = marker();
    const processId = await start(s, `trap '' TERM; echo ready; sleep ${m}`);
    await logsUntil(s, processId, 'ready');
    const stopped = await s.call('bash', { action: 'stop', processId });
    expect(stopped.structuredContent).toMatchObject({ status: 'killed', signal: 'SIGKILL' });
    expect(await survivorsOf(m)).toEqual([]);
  });

  it('lets a process that handles SIGTERM exit cleanly within the grace', async () => {
    const processId = await start(s, `trap 'echo cleaned-up; exit 0' TERM; echo ready; sleep 30 & wait`);
    await logsUntil(s, processId, 'ready');
    const stopped = await s.call('bash', { action: 'stop', processId });
    expect(stopped.structuredContent).toMatchObject({ status: 'killed' });
    expect(field(stopped, 'signal')).not.toBe('SIGKILL');
    expect(await logsUntil(s, processId, 'cleaned-up')).toContain('cleaned-up');
  });

  it('refuses a process past maxProcesses with a clear error, and accepts one after a stop', async () => {
    const m = marker();
    const a = await start(s, `sleep ${m}`);
    await start(s, `sleep ${m}`);
    const third = await s.call('bash', { action: 'start', command: `sleep ${m}` });
    expect(third).toMatchObject({ isError: true, code: 'PROCESS_LIMIT' });
    expect(textOf(third)).toContain('maxProcesses is 2');
    await s.call('bash', { action: 'stop', processId: a });
    const again = await s.call('bash', { action: 'start', command: `sleep ${m}` });
    expect(again.isError).toBeFalsy();
    for (const p of field<{ processId: string; status: string }[]>(await s.call('bash', { action: 'list' }), 'processes')) {
      if (p.status === 'running') await s.call('bash', { action: 'stop', processId: p.processId });
    }
    expect(await survivorsOf(m)).toEqual([]);
  });

  it('stops a process at once after starting it, leaving no survivor (bwrap still setting up)', async () => {
    const m = marker();
    for (let i = 0; i < 5; i++) {
      const processId = await start(s, `sleep ${m}`);
      const stopped = await Promise.race([s.call('bash', { action: 'stop', processId }), pause(5_000).then(() => undefined)]);
      expect(stopped?.structuredContent, 'stop did not return within 5 s').toMatchObject({ status: 'killed' });
    }
    expect(await survivorsOf(m)).toEqual([]);
  });

  it.each([
    ['status', { action: 'status', processId: 'proc-999' }],
    ['logs', { action: 'logs', processId: 'proc-999' }],
    ['write', { action: 'write', processId: 'proc-999', input: 'x' }],
    ['stop', { action: 'stop', processId: 'proc-999' }],
  ])('%s of an unknown process is PROCESS_NOT_FOUND', async (_name, args) => {
    expect(await s.call('bash', args)).toMatchObject({ isError: true, code: 'PROCESS_NOT_FOUND' });
  });
});

describe('logs paging across an overflowing ring buffer', () => {
  const full = Array.from({ length: 300 }, (_, i) => `${i + 1}\n`).join('');

  it('drops from the head, advances startOffset, and pages incrementally to the end', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], limits: { maxProcessOutputChars: 120 } });
    const processId = await start(s, 'seq 1 300');
    await statusUntilEnded(s, processId);
    const first = await s.call('bash', { action: 'logs', processId, offset: 0 });
    expect(first.structuredContent).toMatchObject({ truncated: true, nextOffset: full.length });
    const startOffset = field<number>(first, 'startOffset');
    expect(startOffset).toBe(full.length - 120);
    expect(field(first, 'text')).toBe(full.slice(startOffset));
    expect(textOf(first)).toContain(`buffer now starts at offset ${startOffset}`);
    let offset = startOffset;
    let pages = '';
    for (let i = 0; i < 20 && offset < full.length; i++) {
      const page = await s.call('bash', { action: 'logs', processId, offset, limit: 25 });
      expect(page.structuredContent).toMatchObject({ truncated: false });
      expect(field<string>(page, 'text').length).toBeLessThanOrEqual(25);
      pages += field<string>(page, 'text');
      offset = field<number>(page, 'nextOffset');
    }
    expect(pages).toBe(full.slice(startOffset));
    const atEnd = await s.call('bash', { action: 'logs', processId, offset });
    expect(atEnd.structuredContent).toMatchObject({ text: '', nextOffset: full.length, truncated: false });
    await s.close();
  });

  it('never splits a character across pages', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], limits: { maxProcessOutputChars: 30 } });
    const processId = await start(s, "for i in 1 2 3 4 5 6 7 8 9 10; do printf '\\360\\237\\230\\200x'; done");
    await statusUntilEnded(s, processId);
    let offset = 0;
    let pages = '';
    for (let i = 0; i < 40; i++) {
      const page = await s.call('bash', { action: 'logs', processId, offset, limit: 2 });
      const text = field<string>(page, 'text');
      expect(text).not.toMatch(/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/);
      pages += text;
      if (field<number>(page, 'nextOffset') === offset) break;
      offset = field<number>(page, 'nextOffset');
    }
    expect(pages).toMatch(/^(😀x)+$/u);
    await s.close();
  });
});

describe.each(MODES)('no orphans with sandbox %s', (sandbox) => {
  const open = (runtime: Runtime): Promise<Session> => runtime.openSession({ workspaceRoot: ws.root, tools: ['bash', 'crash'], sandbox });

  /** Starts a background group with a grandchild, plus a plain one; returns the marker they carry. */
  async function startTree(s: Session): Promise<string> {
    const m = marker();
    await start(s, `sleep ${m} & sleep ${m}`);
    await start(s, `(sleep ${m}) ; sleep ${m}`);
    for (let i = 0; i < 100 && processesWith(`sleep ${m}`).length < 3; i++) await pause(25);
    expect(processesWith(`sleep ${m}`).length).toBeGreaterThanOrEqual(3);
    return m;
  }

  it('after session.close()', async () => {
    const s = await open(rt);
    const m = await startTree(s);
    await s.close();
    expect(await survivorsOf(m)).toEqual([]);
  });

  it('after rt.close()', async () => {
    const own = await createRuntime({ idleWorkers: 0, toolModules: [TOOLS] });
    const m = await startTree(await open(own));
    await own.close();
    expect(await survivorsOf(m)).toEqual([]);
  });

  it('not after the worker crashes (they belong to the session), and die with the session', async () => {
    const s = await open(rt);
    const m = await startTree(s);
    const crashed = await s.call('crash', {});
    expect(crashed).toMatchObject({ isError: true, code: 'WORKER_CRASHED' });
    await pause(300);
    expect(processesWith(`sleep ${m}`).length).toBeGreaterThanOrEqual(3);
    const after = await s.call('bash', { command: 'echo alive' });
    expect(field(after, 'stdout')).toBe('alive\n');
    await s.close();
    expect(await survivorsOf(m)).toEqual([]);
  });
});
