import { Socket } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import type { LauncherEvent } from '../../src/protocol/launcher.js';
import { killProcessGroup, trackProcessGroup, untrackProcessGroup } from './process-group.js';
import type { GroupListener, LaunchSpec } from './process-launcher.js';
import type { LauncherRequest } from '../../src/protocol/launcher.js';

/** What spawns groups for {@link launchGroup}: the host's process launcher, or a session's sandbox zygote. */
export interface GroupLauncher {
  open(spec: LaunchSpec, listener: GroupListener): number;
  send(request: LauncherRequest): boolean;
  /** Whether the pids it reports are host pids (tracked for the exit hook, killed from here when it is lost). */
  readonly reportsHostPids: boolean;
}
import type { GroupExit, SpawnedGroup } from './spawn-group.js';

const LOST: GroupExit = { exitCode: null, signal: 'SIGKILL' };

/**
 * Spawns a group through the launcher and resolves once it has started (or failed to): its output arrives as
 * Buffers on PassThrough streams, stdin writes are acknowledged by the launcher (so EPIPE reaches the writer), and
 * signals are sent to the launcher, which alone knows without delay whether the leader still lives.
 * The group is tracked for the host exit hook from the moment its pid is known.
 */
export function launchGroup(launcher: GroupLauncher, spec: LaunchSpec): Promise<SpawnedGroup> {
  const hostPids = launcher.reportsHostPids;
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const acks = new Map<number, (error?: Error) => void>();
  let id = -1;
  let seq = 0;
  let pid: number | undefined;
  let exit: GroupExit | undefined;
  let exited = false;
  let settleDone: (exit: GroupExit) => void = () => {};
  const done = new Promise<GroupExit>((resolve) => {
    settleDone = resolve;
  });
  // With handOverStdio the launcher sends the group's own stdin and stdout sockets, which then replace these.
  let handedStdin: Socket | undefined;
  let handedStdout: Socket | undefined;
  const relayedStdin = spec.stdin === 'pipe'
    ? new Writable({
      write(chunk: Buffer, _encoding, callback) {
        const mine = seq++;
        acks.set(mine, callback);
        if (launcher.send({ type: 'stdin', id, seq: mine, data: chunk })) return;
        acks.delete(mine);
        callback(new Error('the process launcher is gone'));
      },
      final(callback) {
        launcher.send({ type: 'stdin-end', id });
        callback();
      },
    })
    : null;
  const markExited = (): void => {
    exited = true;
    if (pid !== undefined && hostPids) untrackProcessGroup(pid);
  };
  const finish = (outcome: GroupExit): void => {
    markExited();
    for (const ack of acks.values()) ack(new Error('the process has ended'));
    acks.clear();
    relayedStdin?.destroy();
    handedStdin?.destroy();
    // A handed-over stdout is read to its end by its reader: the process is gone, so that end is near.
    stdout.end();
    stderr.end();
    settleDone(outcome);
  };
  return new Promise((resolve) => {
    const group = (): SpawnedGroup => ({
      pid,
      stdout: handedStdout ?? stdout,
      stderr,
      stdin: handedStdin ?? relayedStdin,
      done,
      get exited() {
        return exited;
      },
      signal(signal) {
        if (!exited) launcher.send({ type: 'signal', id, signal });
      },
    });
    const onEvent = (event: Exclude<LauncherEvent, { type: 'ready' }>, handle?: unknown): void => {
      switch (event.type) {
        case 'stdio-handle':
          if (!spec.handOverStdio || !(handle instanceof Socket)) return;
          handle.on('error', () => {}); // the group's end is told by `closed`, whatever the socket saw
          if (event.stream === 'stdin') handedStdin = handle;
          else {
            handle.end(); // nothing is ever written to the process's stdout, so only its reading side stays open
            handedStdout = handle;
          }
          return;
        case 'spawned':
          pid = event.pid;
          if (hostPids) trackProcessGroup(pid);
          return resolve(group());
        case 'spawn-error':
          finish({ exitCode: null, signal: null, spawnError: event.message });
          return resolve(group());
        case 'output':
          (event.stream === 'stdout' ? stdout : stderr).write(Buffer.from(event.data.buffer, event.data.byteOffset, event.data.byteLength));
          return;
        case 'stdin-ack': {
          const ack = acks.get(event.seq);
          acks.delete(event.seq);
          ack?.(event.error === undefined ? undefined : new Error(event.error));
          return;
        }
        case 'exit':
          exit = { exitCode: event.exitCode, signal: event.signal };
          markExited();
          return;
        case 'closed':
          return finish(exit ?? LOST);
      }
    };
    const onLost = (): void => {
      // The launcher died (its own cleanup may not have run): end the group from here, so nothing is orphaned.
      // A zygote's pids are its namespace's: the zygote kills its whole sandbox before it reports the loss.
      if (pid !== undefined && !exited && hostPids) {
        try {
          killProcessGroup(pid, 'SIGKILL');
        } catch {
          // already gone, or not ours to signal
        }
      }
      finish(exit ?? (pid === undefined ? { exitCode: null, signal: null, spawnError: 'the process launcher exited' } : LOST));
      resolve(group());
    };
    id = launcher.open(spec, { onEvent, onLost });
  });
}
