import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { LauncherEvent, LauncherRequest } from '../../src/protocol/launcher.js';
import { killGroupAndDescendants, killProcessGroup, signalDescendants } from './process-group.js';

interface Launched {
  child: ChildProcess;
  pid: number;
  exited: boolean;
  stopThroughDescendants: boolean;
  /** Its stdin and stdout went to the runtime (handOverStdio): stdin requests for it are refused. */
  handedOver: boolean;
}

/** How a launcher core talks to its runtime, and what runs between a group's exit and its `closed`. */
export interface LauncherTransport {
  send(event: LauncherEvent): void;
  /** Sends a `stdio-handle` event with the stream's socket as its handle; without it, handOverStdio is refused. */
  handOver?(event: Extract<LauncherEvent, { type: 'stdio-handle' }>, stream: Readable | Writable): void;
  /** Runs after a group's leader exited and its group was killed, before `closed` is sent (a zygote reaps orphans). */
  afterExit?(): Promise<void>;
  /** Runs right after a `closed` was sent, with how many groups are still open (a zygote empties /tmp when none is). */
  afterClosed?(open: number): void;
}

/** The spawning side shared by the host's launcher (launcher-main.ts) and a session's sandbox zygote. */
export interface LauncherCore {
  handle(request: LauncherRequest): void;
  /** SIGKILLs every group still running (whole groups and their descendants). */
  killAll(): void;
}

/**
 * Spawns, feeds and signals groups on request: each command leads a new process group with exactly the given
 * environment; when its leader exits, whatever it left running in its group is SIGKILLed before `exit` is sent.
 */
export function createLauncherCore(transport: LauncherTransport): LauncherCore {
  const groups = new Map<number, Launched>();
  const { send } = transport;

  function launch(request: Extract<LauncherRequest, { type: 'spawn' }>): void {
    const { id } = request;
    if (groups.has(id)) return send({ type: 'spawn-error', id, message: `id ${id} is already in use` });
    const handOver = request.handOverStdio === true ? transport.handOver : undefined;
    if (request.handOverStdio === true && (handOver === undefined || request.stdin !== 'pipe')) {
      return send({ type: 'spawn-error', id, message: 'handOverStdio needs stdin: pipe and a launcher that can pass handles' });
    }
    let child: ChildProcess;
    try {
      child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env, detached: true, stdio: [request.stdin, 'pipe', 'pipe'] });
    } catch (error) {
      send({ type: 'spawn-error', id, message: (error as Error).message });
      return;
    }
    const pid = child.pid;
    if (pid === undefined) {
      child.once('error', (error) => send({ type: 'spawn-error', id, message: error.message }));
      return;
    }
    const entry: Launched = { child, pid, exited: false, stopThroughDescendants: request.stopThroughDescendants, handedOver: handOver !== undefined };
    groups.set(id, entry);
    child.on('error', () => {}); // a failed kill() is reported here; the group's outcome still comes from 'exit'
    if (handOver !== undefined && child.stdin !== null && child.stdout !== null) {
      // Sent before `spawned`, so the runtime holds both ends when its group starts; this process keeps no copy.
      handOver({ type: 'stdio-handle', id, stream: 'stdin' }, child.stdin);
      handOver({ type: 'stdio-handle', id, stream: 'stdout' }, child.stdout);
    } else {
      child.stdin?.on('error', () => {}); // EPIPE reaches the writer through its stdin-ack
      child.stdout?.on('data', (data: Buffer) => send({ type: 'output', id, stream: 'stdout', data }));
    }
    send({ type: 'spawned', id, pid });
    child.stderr?.on('data', (data: Buffer) => send({ type: 'output', id, stream: 'stderr', data }));
    // Run at the leader's exit, not at stdio close: what it reaps may be what holds the pipes open.
    const exited = new Promise<void>((resolve) => {
      child.once('exit', (exitCode, signal) => {
        entry.exited = true;
        killQuietly(pid, 'SIGKILL'); // whatever the leader left running in its group
        send({ type: 'exit', id, exitCode, signal });
        void Promise.resolve(transport.afterExit?.()).finally(resolve);
      });
    });
    // A handed-over stream never closes here, so the child's 'close' never comes: then only stderr is waited for.
    const stdioClosed = new Promise<void>((resolve) => {
      if (handOver === undefined) child.once('close', () => resolve());
      else if (child.stderr === null) resolve();
      else child.stderr.once('close', () => resolve());
    });
    void stdioClosed.then(() => {
      void exited.then(() => {
        groups.delete(id);
        send({ type: 'closed', id });
        transport.afterClosed?.(groups.size);
      });
    });
  }

  function writeStdin(request: Extract<LauncherRequest, { type: 'stdin' }>): void {
    const { id, seq } = request;
    const entry = groups.get(id);
    const stdin = entry?.child.stdin;
    if (!entry || !stdin || !stdin.writable || entry.exited || entry.handedOver) {
      send({ type: 'stdin-ack', id, seq, error: 'the process has ended or closed its stdin' });
      return;
    }
    stdin.write(request.data, (error) => send(error ? { type: 'stdin-ack', id, seq, error: error.message } : { type: 'stdin-ack', id, seq }));
  }

  function signalGroup(request: Extract<LauncherRequest, { type: 'signal' }>): void {
    const entry = groups.get(request.id);
    // Once the leader has exited its group is gone, and its pid may already name another process.
    if (!entry || entry.exited) return;
    if (entry.stopThroughDescendants && request.signal !== 'SIGKILL' && process.platform === 'linux') {
      try {
        signalDescendants(entry.pid, request.signal);
      } catch {
        // A descendant we may not signal is no reason to stop serving the others.
      }
    } else if (request.signal === 'SIGKILL') {
      killAllQuietly(entry.pid);
    } else {
      killQuietly(entry.pid, request.signal);
    }
  }

  return {
    handle(request) {
      switch (request.type) {
        case 'spawn':
          return launch(request);
        case 'stdin':
          return writeStdin(request);
        case 'stdin-end': {
          const entry = groups.get(request.id);
          if (entry?.handedOver === false) entry.child.stdin?.end();
          return;
        }
        case 'signal':
          return signalGroup(request);
      }
    },
    killAll() {
      for (const entry of groups.values()) if (!entry.exited) killAllQuietly(entry.pid);
    },
  };
}

function killAllQuietly(pid: number): void {
  try {
    killGroupAndDescendants(pid);
  } catch {
    // EPERM: nothing more this launcher can do for that group.
  }
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    killProcessGroup(pid, signal);
  } catch {
    // EPERM: nothing more this launcher can do for that group.
  }
}
