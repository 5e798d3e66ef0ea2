import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBwrap } from '../helpers/has-bwrap.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { DRIVER_USERS, giveToNobody, runSandboxed, type DriverResult, ZYGOTE_UNDER_TEST } from '../helpers/run-sandboxed.js';

// One session's commands share a standing sandbox (zygote). Each attack here is on what that sharing could weaken:
// blocked paths the host creates or replaces mid-session, stubs removed under it, processes a command leaves behind,
// and the zygote itself killed by a command. Scripts run from files so the static check is not what stops them.
// The zygote is pid 2 of the session's pid namespace; its start time tells one zygote from the next.
const ZYGOTE_START = 'sh zygote-start.sh';
const STEPS = [
  'ps -o args= -p 2',
  ZYGOTE_START,
  'host: git init -q sub',
  'sh plant-hook.sh',
  ZYGOTE_START,
  ZYGOTE_START,
  'host: git -C sub config user.name host-edit',
  'sh git-name.sh',
  'sh plant-config.sh',
  'host: rmdir .ssh',
  'sh plant-key.sh',
  '(setsid sleep 1000 >/dev/null 2>&1 &); echo spawned',
  'ps -eo args | grep -c "^sleep 1000" || true',
  'sh tmp-write.sh',
  'sh tmp-read.sh',
  'sh kill-zygote.sh',
  'echo fresh',
] as const;

describe.skipIf(!hasBwrap).each(DRIVER_USERS)('a session sandbox zygote, as %s', (user) => {
  let ws: TempTree;
  let results: DriverResult[];
  const step = (command: (typeof STEPS)[number], nth = 0): DriverResult => {
    const found = results.filter((r) => r.command === command)[nth];
    if (found === undefined) throw new Error(`no result for ${command}`);
    return found;
  };

  beforeAll(async () => {
    ws = makeTempTree('tw-zygote', {
      'plant-hook.sh': 'echo evil > sub/.git/hooks/pre-commit\n',
      'plant-key.sh': 'mkdir -p .ssh; echo key > .ssh/authorized_keys\n',
      'kill-zygote.sh': 'kill -9 $PPID; sleep 5\n',
      'zygote-start.sh': 'cut -d" " -f22 /proc/2/stat\n',
      'git-name.sh': 'git -C sub config user.name\n',
      'plant-config.sh': 'echo "[core] fsmonitor = evil" >> sub/.git/config\n',
      'tmp-write.sh': 'echo shared > /tmp/shared.txt\n',
      'tmp-read.sh': 'cat /tmp/shared.txt\n',
    });
    if (user === 'nobody') giveToNobody(ws.root);
    results = await runSandboxed(user, ws.root, [...STEPS], { sandboxZygote: ZYGOTE_UNDER_TEST });
  }, 120_000);
  afterAll(() => ws.cleanup());

  it('runs the commands in the zygote', () => {
    expect(step('ps -o args= -p 2').stdout).toContain('zygote-main.js');
  });

  it('a repository the host creates mid-session is read-only for the next command (its zygote is rebuilt)', () => {
    const planted = step('sh plant-hook.sh');
    expect(planted.code).not.toBe('BLOCKED_PATH_WRITTEN'); // refused by the mount, not found and removed afterwards
    expect(planted.stderr).toMatch(/Read-only file system/);
    expect(existsSync(ws.at('sub/.git/hooks/pre-commit'))).toBe(false);
    expect(step(ZYGOTE_START, 0).stdout).toMatch(/^\d+\n$/);
    expect(step(ZYGOTE_START, 1).stdout).not.toBe(step(ZYGOTE_START, 0).stdout);
  });

  it('keeps the zygote while the blocked paths stay as they are (near miss)', () => {
    expect(step(ZYGOTE_START, 2).stdout).toBe(step(ZYGOTE_START, 1).stdout);
  });

  it('a blocked file the host replaces (git renames its config into place) stays read-only and is seen as it is now', () => {
    expect(step('sh git-name.sh').stdout.trim()).toBe('host-edit');
    const planted = step('sh plant-config.sh');
    expect(planted.code).not.toBe('BLOCKED_PATH_WRITTEN'); // a change in place could not have been undone
    expect(planted.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(ws.at('sub/.git/config'), 'utf8')).not.toContain('evil');
  });

  it('a stub the host removes mid-session still keeps the next command from creating that path', () => {
    const planted = step('sh plant-key.sh');
    expect(planted.code).not.toBe('BLOCKED_PATH_WRITTEN');
    expect(planted.isError || planted.exitCode !== 0).toBe(true);
    expect(existsSync(ws.at('.ssh/authorized_keys'))).toBe(false);
  });

  it('a process a command leaves behind is gone when it ends', () => {
    expect(step('(setsid sleep 1000 >/dev/null 2>&1 &); echo spawned').stdout).toBe('spawned\n');
    expect(step('ps -eo args | grep -c "^sleep 1000" || true').stdout.trim()).toBe('0');
  });

  it('gives the next command an empty /tmp, as a bwrap of its own would, without touching the workspace mounted below /tmp', () => {
    expect(ws.root.startsWith('/tmp/')).toBe(true);
    expect(['plant-hook.sh', 'tmp-read.sh', 'kill-zygote.sh'].filter((name) => !existsSync(ws.at(name)))).toEqual([]);
    expect(step('sh tmp-write.sh').exitCode).toBe(0);
    expect(step('sh tmp-read.sh')).toMatchObject({ stdout: '', stderr: expect.stringMatching(/No such file/) });
  });

  it('a command that kills its zygote fails with SANDBOX_LOST, and the next command gets a fresh one', () => {
    expect(step('sh kill-zygote.sh').code).toBe('SANDBOX_LOST');
    expect(step('echo fresh')).toMatchObject({ isError: false, stdout: 'fresh\n' });
  });

  it('leaves no sandbox process and no stub once the session closed', () => {
    const left = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(ws.root));
    expect(left).toEqual([]);
    expect(existsSync(ws.at('.bashrc'))).toBe(false);
  });
});
