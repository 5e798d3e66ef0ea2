import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { spawnGroup, type SpawnGroupOptions } from '../../runtime/processes/spawn-group.js';
import { CHILD_ENV, SHELL, describeProcess, eventually, livePidsInGroup } from './helpers.js';

function spawn(command: string, stdin: SpawnGroupOptions['stdin'] = 'ignore') {
  return spawnGroup({ command, cwd: process.cwd(), env: CHILD_ENV, shell: SHELL, stdin });
}

describe.runIf(process.platform === 'linux')('spawnGroup through the process launcher', () => {
  it('is spawned by the launcher, not forked from this process', async () => {
    const group = await spawn('sleep 60');
    const parent = describeProcess(group.pid as number);
    expect(parent.ppid).not.toBe(process.pid);
    expect(describeProcess(parent.ppid).args).toContain('launcher-main.js');
    group.signal('SIGKILL');
    expect(await group.done).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
  });

  it('carries stdin bytes and its end to the command, and its output back', async () => {
    const group = await spawn('cat; echo done >&2', 'pipe');
    const [out, err] = [text(group.stdout!), text(group.stderr!)];
    group.stdin!.end(Buffer.from('héllo\n'));
    expect(await group.done).toEqual({ exitCode: 0, signal: null });
    expect(await out).toBe('héllo\n');
    expect(await err).toBe('done\n');
  });

  it('a launcher that dies takes its groups along, and the next spawn gets a new launcher', async () => {
    const group = await spawn('sleep 60 & sleep 60; wait');
    const launcher = describeProcess(group.pid as number).ppid;
    process.kill(launcher, 'SIGKILL');
    expect(await group.done).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
    expect(group.exited).toBe(true);
    expect(await eventually(() => livePidsInGroup(group.pid as number).length === 0)).toBe(true);
    const next = await spawn('echo again');
    const out = text(next.stdout!);
    expect(await next.done).toEqual({ exitCode: 0, signal: null });
    expect(await out).toBe('again\n');
  });
});
