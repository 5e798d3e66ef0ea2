import { readdirSync, readlinkSync } from 'node:fs';
import { Socket } from 'node:net';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { LauncherEvent, LauncherRequest } from '../../src/protocol/launcher.js';
import { launchGroup } from '../../runtime/processes/launched-group.js';
import { createLauncherCore } from '../../runtime/processes/launcher-core.js';
import { acquireLauncher } from '../../runtime/processes/shared-launcher.js';
import { CHILD_ENV, describeProcess } from './helpers.js';

const spawnRequest = (extra: Partial<Extract<LauncherRequest, { type: 'spawn' }>>): Extract<LauncherRequest, { type: 'spawn' }> => ({
  type: 'spawn', id: 1, file: 'cat', args: [], cwd: '/', env: CHILD_ENV, stdin: 'pipe', stopThroughDescendants: false, ...extra,
});

/** How many sockets a process holds open now. */
function socketCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
    } catch {
      return false;
    }
  }).length;
}

describe.runIf(process.platform === 'linux')('launchGroup with handOverStdio', () => {
  it("hands the group's own stdin and stdout to this process: bytes go both ways and the launcher keeps only stderr", async () => {
    const launcher = await acquireLauncher();
    if (launcher === undefined) throw new Error('no launcher');
    const probe = await launchGroup(launcher, { file: 'sleep', args: ['60'], cwd: '/', env: CHILD_ENV, stdin: 'ignore', stopThroughDescendants: false });
    const launcherPid = describeProcess(probe.pid as number).ppid;
    probe.signal('SIGKILL');
    await probe.done;
    const before = socketCount(launcherPid);

    const group = await launchGroup(launcher, { file: 'cat', args: [], cwd: '/', env: CHILD_ENV, stdin: 'pipe', stopThroughDescendants: false, handOverStdio: true });
    expect(group.stdin).toBeInstanceOf(Socket);
    expect(group.stdout).toBeInstanceOf(Socket);
    // The near miss below relays all three; handed over, the launcher holds the stderr socket only.
    expect(socketCount(launcherPid) - before).toBe(1);
    const out = text(group.stdout!);
    group.stdin!.end(Buffer.from('héllo\n'));
    expect(await group.done).toEqual({ exitCode: 0, signal: null });
    expect(await out).toBe('héllo\n');
  });

  it('near miss: without it the launcher relays stdin, stdout and stderr', async () => {
    const launcher = await acquireLauncher();
    if (launcher === undefined) throw new Error('no launcher');
    const group = await launchGroup(launcher, { file: 'cat', args: [], cwd: '/', env: CHILD_ENV, stdin: 'pipe', stopThroughDescendants: false });
    expect(group.stdout).not.toBeInstanceOf(Socket);
    const out = text(group.stdout!);
    group.stdin!.end(Buffer.from('relayed\n'));
    expect(await group.done).toEqual({ exitCode: 0, signal: null });
    expect(await out).toBe('relayed\n');
  });

  it("a handed-over group's end is still reported, though its stdio never closes in the launcher", async () => {
    const launcher = await acquireLauncher();
    if (launcher === undefined) throw new Error('no launcher');
    const group = await launchGroup(launcher, { file: 'sh', args: ['-c', 'echo gone >&2; exit 3'], cwd: '/', env: CHILD_ENV, stdin: 'pipe', stopThroughDescendants: false, handOverStdio: true });
    const err = text(group.stderr!);
    expect(await group.done).toEqual({ exitCode: 3, signal: null });
    expect(await err).toBe('gone\n');
    expect(group.exited).toBe(true);
  });
});

describe.runIf(process.platform === 'linux')('launcher core: handOverStdio refusals', () => {
  function core(withHandOver: boolean) {
    const events: LauncherEvent[] = [];
    const handed: string[] = [];
    const launcher = createLauncherCore({
      send: (event) => events.push(event),
      ...(withHandOver ? { handOver: (event: Extract<LauncherEvent, { type: 'stdio-handle' }>, stream: { destroy(): void }) => {
        handed.push(event.stream);
        stream.destroy();
      } } : {}),
    });
    return { launcher, events, handed };
  }

  it.each([
    ['a transport that cannot pass handles', false, spawnRequest({ handOverStdio: true })],
    ['stdin: ignore', true, spawnRequest({ handOverStdio: true, stdin: 'ignore' })],
  ])('is refused with %s, and nothing is spawned', (_name, withHandOver, request) => {
    const { launcher, events, handed } = core(withHandOver);
    launcher.handle(request);
    expect(events).toEqual([{ type: 'spawn-error', id: 1, message: expect.stringContaining('handOverStdio') }]);
    expect(handed).toEqual([]);
  });

  it('hands over stdin then stdout before spawned, and refuses stdin requests for that group afterwards', async () => {
    const { launcher, events, handed } = core(true);
    launcher.handle(spawnRequest({ handOverStdio: true }));
    expect(handed).toEqual(['stdin', 'stdout']);
    expect(events.map((e) => e.type)).toEqual(['spawned']);
    launcher.handle({ type: 'stdin', id: 1, seq: 0, data: Buffer.from('x') });
    expect(events.at(-1)).toEqual({ type: 'stdin-ack', id: 1, seq: 0, error: expect.any(String) });
    launcher.handle({ type: 'signal', id: 1, signal: 'SIGKILL' });
    await expect.poll(() => events.at(-1)?.type, { timeout: 3_000 }).toBe('closed');
  });
});
