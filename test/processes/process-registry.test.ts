import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { countLiveProcessGroups, killAllProcessGroupsSync } from '../../runtime/processes/process-group.js';
import { ProcessRegistry, type ProcessRegistryOptions } from '../../runtime/processes/process-registry.js';
import { CHILD_ENV, SHELL, eventually, isAlive, livePidsInGroup } from './helpers.js';

const cwd = mkdtempSync(path.join(os.tmpdir(), 'tw-procs-'));
const registries: ProcessRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.closeAll()));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function makeRegistry(extra: Partial<ProcessRegistryOptions> = {}): ProcessRegistry {
  const registry = new ProcessRegistry({ maxProcesses: 4, maxOutputChars: 1_000, stopGraceMs: 300, encoding: 'utf-8', shell: SHELL, env: CHILD_ENV, ...extra });
  registries.push(registry);
  return registry;
}

async function waitForLogs(registry: ProcessRegistry, id: string, needle: string): Promise<string> {
  let text = '';
  await eventually(() => (text = registry.logs(id).text).includes(needle));
  return text;
}

async function waitForEnd(registry: ProcessRegistry, id: string): Promise<void> {
  expect(await eventually(() => registry.status(id).status !== 'running')).toBe(true);
}

describe('ProcessRegistry', () => {
  it('kills on close a descendant that left the process group (setsid)', async () => {
    const registry = makeRegistry();
    const { processId } = await registry.start('setsid sleep 60 & echo "pid $!"; wait', cwd);
    const pid = Number(/pid (\d+)/.exec(await waitForLogs(registry, processId, 'pid '))?.[1]);
    expect(isAlive(pid)).toBe(true);
    await registry.closeAll();
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it('passes stdin to cat and captures its output', async () => {
    const registry = makeRegistry();
    const { processId, status, pid } = await registry.start('cat', cwd);
    expect(status).toBe('running');
    expect(pid).toBeGreaterThan(0);
    await registry.write(processId, 'hello\n');
    expect(await waitForLogs(registry, processId, 'hello')).toBe('hello\n');
  });

  it('encodes stdin and decodes output with the session encoding (gbk)', async () => {
    const registry = makeRegistry({ encoding: 'gbk' });
    const { processId } = await registry.start("cat; printf '\\xd6' >&2; sleep 0.05; printf '\\xd0\\xce\\xc4' >&2", cwd);
    await registry.write(processId, '中文\n');
    expect(await waitForLogs(registry, processId, '中文\n')).toBe('中文\n');
    await registry.stop(processId);
  });

  it('interleaves stdout and stderr and reports the exit', async () => {
    const registry = makeRegistry();
    const { processId } = await registry.start('echo out; echo err >&2; exit 3', cwd);
    await waitForEnd(registry, processId);
    expect(registry.status(processId)).toMatchObject({ status: 'exited', exitCode: 3, signal: null });
    expect(registry.status(processId).endedAt).not.toBeNull();
    expect(registry.logs(processId).text.split('\n').sort()).toEqual(['', 'err', 'out']);
  });

  it('pages logs across a buffer that overflowed', async () => {
    const registry = makeRegistry({ maxOutputChars: 100 });
    const { processId } = await registry.start("for i in $(seq 0 29); do printf '%09d\\n' $i; done", cwd);
    await waitForEnd(registry, processId);
    const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `${String(from + i).padStart(9, '0')}\n`).join('');
    expect(registry.logs(processId, 0, 30)).toMatchObject({ text: lines(20, 23), startOffset: 200, nextOffset: 230, truncated: true, status: 'exited' });
    expect(registry.logs(processId, 230)).toMatchObject({ text: lines(23, 30), startOffset: 230, nextOffset: 300, truncated: false });
    expect(registry.logs(processId, 300)).toMatchObject({ text: '', startOffset: 300, nextOffset: 300, truncated: false });
    expect(registry.logs(processId)).toMatchObject({ text: lines(20, 30), startOffset: 200, truncated: false });
  });

  it.each([
    ['ignores SIGTERM, so SIGKILL follows after the grace', "trap 'echo got-term' TERM", { status: 'killed', signal: 'SIGKILL', exitCode: null }],
    ['exits on SIGTERM within the grace', "trap 'echo got-term; exit 0' TERM", { status: 'killed', signal: null, exitCode: 0 }],
  ])('stop: a process that %s', async (_name, trap, expected) => {
    const registry = makeRegistry();
    const { processId, pid } = await registry.start(`${trap}; echo ready; while true; do sleep 0.1; done`, cwd);
    await waitForLogs(registry, processId, 'ready');
    expect(await registry.stop(processId)).toMatchObject(expected);
    expect(registry.logs(processId).text).toContain('got-term');
    expect(await eventually(() => livePidsInGroup(pid as number).length === 0)).toBe(true);
  });

  it('closeAll kills every group, leaves no process, and refuses later starts', async () => {
    const registry = makeRegistry();
    const started = await Promise.all([registry.start('sleep 60 & sleep 60; wait', cwd), registry.start('cat', cwd)]);
    await eventually(() => started.every((s) => livePidsInGroup(s.pid as number).length > 0));
    await registry.closeAll();
    expect(registry.list().map((s) => s.status)).toEqual(['killed', 'killed']);
    for (const { pid } of started) expect(await eventually(() => livePidsInGroup(pid as number).length === 0)).toBe(true);
    await expect(registry.start('echo hi', cwd)).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    await expect(registry.closeAll()).resolves.toBeUndefined();
  });

  it('killAllProcessGroupsSync (the host exit hook) kills every tracked group', async () => {
    const registry = makeRegistry();
    const { processId, pid } = await registry.start('sleep 60 & sleep 60; wait', cwd);
    expect(countLiveProcessGroups()).toBeGreaterThan(0);
    killAllProcessGroupsSync();
    expect(countLiveProcessGroups()).toBe(0);
    await waitForEnd(registry, processId);
    expect(registry.status(processId)).toMatchObject({ status: 'killed', signal: 'SIGKILL' });
    expect(await eventually(() => livePidsInGroup(pid as number).length === 0)).toBe(true);
  });

  it('refuses more than maxProcesses live processes, and counts only live ones', async () => {
    const registry = makeRegistry({ maxProcesses: 1 });
    const first = await registry.start('sleep 60', cwd);
    await expect(registry.start('sleep 60', cwd)).rejects.toMatchObject({ code: 'PROCESS_LIMIT' });
    await registry.stop(first.processId);
    expect((await registry.start('sleep 60', cwd)).status).toBe('running');
  });

  it('counts starts still in flight against maxProcesses', async () => {
    const registry = makeRegistry({ maxProcesses: 1 });
    const outcomes = await Promise.allSettled([registry.start('sleep 60', cwd), registry.start('sleep 60', cwd)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'PROCESS_LIMIT' } });
  });

  it('closeAll during a start kills what that start spawned', async () => {
    const registry = makeRegistry();
    const marker = `61.${process.pid}`;
    const starting = registry.start(`exec sleep ${marker}`, cwd);
    await registry.closeAll();
    await expect(starting).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    expect(registry.list()).toEqual([]);
    expect(await eventually(() => !execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).includes(`sleep ${marker}`))).toBe(true);
  });

  it.each([
    ['status', (r: ProcessRegistry) => r.status('proc-99')],
    ['logs', (r: ProcessRegistry) => r.logs('proc-99')],
    ['stop', (r: ProcessRegistry) => r.stop('proc-99')],
    ['write', (r: ProcessRegistry) => r.write('proc-99', 'x')],
  ])('%s of an unknown id fails with PROCESS_NOT_FOUND', async (_name, call) => {
    const registry = makeRegistry();
    await expect(Promise.resolve().then((): unknown => call(registry))).rejects.toMatchObject({ code: 'PROCESS_NOT_FOUND' });
  });

  it('refuses input to an ended process and bad log offsets', async () => {
    const registry = makeRegistry();
    const { processId } = await registry.start('true', cwd);
    await waitForEnd(registry, processId);
    await expect(registry.write(processId, 'x')).rejects.toMatchObject({ code: 'PROCESS_EXITED' });
    expect(() => registry.logs(processId, -1)).toThrow(expect.objectContaining({ code: 'INVALID_ARGS' }));
  });

  it('reports a write to a process that closed its stdin as PROCESS_EXITED, without crashing', async () => {
    const registry = makeRegistry();
    const { processId } = await registry.start('exec 0<&-; echo closed; sleep 60', cwd);
    await waitForLogs(registry, processId, 'closed');
    await expect(registry.write(processId, 'x\n')).rejects.toMatchObject({ code: 'PROCESS_EXITED' });
    expect(registry.status(processId).status).toBe('running');
  });

  it('fails with SPAWN_FAILED for a missing cwd', async () => {
    const registry = makeRegistry();
    await expect(registry.start('echo hi', path.join(cwd, 'missing'))).rejects.toMatchObject({ code: 'SPAWN_FAILED' });
    expect(registry.list()).toEqual([]);
  });
});
