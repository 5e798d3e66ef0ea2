import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session, type ToolResult } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';
import { hasBwrap } from '../helpers/has-bwrap.js';
import { ZYGOTE_UNDER_TEST } from '../helpers/run-sandboxed.js';

// The check after a command holds for background processes too: what a `start`ed process plants at a blocked path
// is found once it exits, is stopped, or its session closes; reported in status, logs and stop (BLOCKED_PATH_WRITTEN,
// blockedPaths) and the audit, and removed. Each plant runs from a script file so the static check is not what stops it.

let rt: Runtime;
const audit: { args: unknown; result?: string | undefined }[] = [];
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const field = <T>(result: ToolResult, name: string): T => result.structuredContent?.[name] as T;
const sandboxEvents = (): string[] => audit.filter((e) => (e.args as { event?: string } | undefined)?.event === 'sandbox').map((e) => e.result ?? '');

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1, audit: (e) => audit.push({ args: e.args, result: e.result }) });
});
afterAll(async () => {
  await rt?.close();
});

async function open(ws: TempTree): Promise<Session> {
  return rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'required' });
}

async function start(s: Session, command: string): Promise<string> {
  const result = await s.call('bash', { action: 'start', command });
  expect(result.isError, textOf(result)).toBeFalsy();
  return field<string>(result, 'processId');
}

async function statusUntilEnded(s: Session, processId: string): Promise<ToolResult> {
  let result = await s.call('bash', { action: 'status', processId });
  for (let i = 0; i < 400 && field(result, 'status') === 'running'; i++) {
    await pause(25);
    result = await s.call('bash', { action: 'status', processId });
  }
  return result;
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await pause(25);
}

// `reported` is the blocked path the check names: a whole new .git is a repository the host's git would trust.
const PLANTS: [name: string, script: string, reported: string][] = [
  ['.git/hooks when .git did not exist at start', 'mkdir -p .git/hooks && echo evil > .git/hooks/x', '.git'],
  ['a nested .ssh/authorized_keys', 'mkdir -p sub/.ssh && echo key > sub/.ssh/authorized_keys', 'sub/.ssh'],
];

describe.skipIf(!hasBwrap)('the blocklist check after a background process', () => {
  let ws: TempTree;
  beforeAll(() => {
    ws = makeTempTree('tw-bg-blk', { 'a.txt': 'a\n' });
  });
  afterAll(() => ws.cleanup());

  it.each(PLANTS)('one that exits by itself after planting %s: status and logs say BLOCKED_PATH_WRITTEN, the audit too, and it is gone', async (_name, script, planted) => {
    ws.write({ 'plant.sh': `${script}\n` });
    const s = await open(ws);
    const id = await start(s, 'sh plant.sh');
    const status = await statusUntilEnded(s, id);
    expect(status.code, textOf(status)).toBe('BLOCKED_PATH_WRITTEN');
    expect(field(status, 'status')).toBe('exited');
    expect(field<{ path: string; change: string; removed: boolean }[]>(status, 'blockedPaths')).toEqual([{ path: ws.at(planted), change: 'created', removed: true }]);
    expect(existsSync(ws.at(planted))).toBe(false);
    const logs = await s.call('bash', { action: 'logs', processId: id });
    expect(logs.code, textOf(logs)).toBe('BLOCKED_PATH_WRITTEN');
    expect(sandboxEvents().some((e) => e.includes('background process ("sh plant.sh")') && e.includes(ws.at(planted)))).toBe(true);
    await s.close();
  });

  it('one that is stopped after planting: the stop result says so and the plant is gone', async () => {
    ws.write({ 'plant-stay.sh': 'mkdir -p deep/x/.ssh && echo key > deep/x/.ssh/authorized_keys; exec sleep 60\n' });
    const s = await open(ws);
    const id = await start(s, 'sh plant-stay.sh');
    await until(() => existsSync(ws.at('deep/x/.ssh/authorized_keys')));
    const stopped = await s.call('bash', { action: 'stop', processId: id });
    expect(stopped.code, textOf(stopped)).toBe('BLOCKED_PATH_WRITTEN');
    expect(field(stopped, 'status')).toBe('killed');
    expect(existsSync(ws.at('deep/x/.ssh'))).toBe(false);
    await s.close();
  });

  it('one still running when its session closes: the plant is gone and the audit says so', async () => {
    ws.write({ 'plant-close.sh': 'mkdir -p c/.aws && echo k > c/.aws/credentials; exec sleep 60\n' });
    const s = await open(ws);
    await start(s, 'sh plant-close.sh');
    await until(() => existsSync(ws.at('c/.aws/credentials')));
    await s.close();
    expect(existsSync(ws.at('c/.aws'))).toBe(false);
    expect(sandboxEvents().some((e) => e.includes(ws.at('c/.aws')))).toBe(true);
  });

  it('near miss: one that writes ordinary files and .gitignore exits clean, and its files stay', async () => {
    ws.write({ 'ordinary.sh': 'mkdir -p src && echo x > src/b.txt && echo dist > .gitignore\n' });
    const s = await open(ws);
    const id = await start(s, 'sh ordinary.sh');
    const status = await statusUntilEnded(s, id);
    expect(status.isError ?? false, textOf(status)).toBe(false);
    expect(field(status, 'exitCode')).toBe(0);
    expect(field(status, 'finding')).toBeUndefined();
    expect(existsSync(ws.at('src/b.txt')) && existsSync(ws.at('.gitignore'))).toBe(true);
    await s.close();
  });
});

describe.skipIf(!hasBwrap)('stub mount points (removed off the main thread)', () => {
  const STUBS = ['.ssh', '.aws', '.bashrc', '.envrc', '.vscode', '.mcp.json'];

  it('are gone when an exec result returns, and when a background process is reported ended (a bwrap per command)', async () => {
    const perCommand = await createRuntime({ idleWorkers: 0, sandboxZygote: false });
    const ws = makeTempTree('tw-stubs', { 'a.txt': 'a\n', 'seen.sh': 'ls -a > seen.txt\n' });
    const s = await perCommand.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'required' });
    try {
      const exec = await s.call('bash', { command: 'sh seen.sh' });
      expect(exec.isError ?? false, textOf(exec)).toBe(false);
      // Inside the command the stubs were there (mounted), after it none is.
      expect(STUBS.every((name) => readFileSync(ws.at('seen.txt'), 'utf8').split('\n').includes(name))).toBe(true);
      expect(STUBS.filter((name) => existsSync(ws.at(name)))).toEqual([]);
      const id = await start(s, 'sh seen.sh');
      const status = await statusUntilEnded(s, id);
      expect(field(status, 'exitCode'), textOf(status)).toBe(0);
      expect(STUBS.filter((name) => existsSync(ws.at(name)))).toEqual([]);
    } finally {
      await s.close();
      await perCommand.close();
      ws.cleanup();
    }
  });

  it("stay while the session's zygote mounts them, and are gone once the session closed", async () => {
    const withZygote = await createRuntime({ idleWorkers: 0, sandboxZygote: ZYGOTE_UNDER_TEST });
    const ws = makeTempTree('tw-stubs', { 'a.txt': 'a\n', 'seen.sh': 'ls -a > seen.txt\n' });
    const s = await withZygote.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'required' });
    try {
      const exec = await s.call('bash', { command: 'sh seen.sh' });
      expect(exec.isError ?? false, textOf(exec)).toBe(false);
      expect(STUBS.every((name) => readFileSync(ws.at('seen.txt'), 'utf8').split('\n').includes(name))).toBe(true);
      // Removing one would unmount it in the standing sandbox (and let the next command create that path).
      expect(STUBS.filter((name) => !existsSync(ws.at(name)))).toEqual([]);
      const id = await start(s, 'sh seen.sh');
      expect(field(await statusUntilEnded(s, id), 'exitCode')).toBe(0);
      expect(STUBS.filter((name) => !existsSync(ws.at(name)))).toEqual([]);
    } finally {
      await s.close();
    }
    expect(STUBS.filter((name) => existsSync(ws.at(name)))).toEqual([]);
    await withZygote.close();
    ws.cleanup();
  });
});
