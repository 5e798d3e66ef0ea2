/**
 * The process launcher's entry: a small Node process, started by the runtime while the runtime is still small,
 * that spawns shell commands on the runtime's behalf. Forking the runtime itself (gigabytes of RSS with hundreds of
 * session workers) copies its page tables and blocks its event loop for tens of milliseconds per command; forking
 * this process costs about a millisecond. Every group it starts is SIGKILLed when the runtime goes away: on IPC
 * disconnect, on SIGTERM (the parent-death signal set through setpriv), and on a crash of the launcher itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { isLauncherRequest, type LauncherEvent, type LauncherRequest } from './launcher-protocol.js';
import { killGroupAndDescendants, killProcessGroup, signalDescendants } from './process-group.js';

interface Launched {
  child: ChildProcess;
  pid: number;
  exited: boolean;
  stopThroughDescendants: boolean;
}

const groups = new Map<number, Launched>();

function send(event: LauncherEvent): void {
  if (process.connected) process.send?.(event);
}

function launch(request: Extract<LauncherRequest, { type: 'spawn' }>): void {
  const { id } = request;
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      stdio: [request.stdin, 'pipe', 'pipe'],
    });
  } catch (error) {
    send({ type: 'spawn-error', id, message: (error as Error).message });
    return;
  }
  const pid = child.pid;
  if (pid === undefined) {
    child.once('error', (error) => send({ type: 'spawn-error', id, message: error.message }));
    return;
  }
  const entry: Launched = { child, pid, exited: false, stopThroughDescendants: request.stopThroughDescendants };
  groups.set(id, entry);
  send({ type: 'spawned', id, pid });
  child.on('error', () => {}); // a failed kill() is reported here; the group's outcome still comes from 'exit'
  child.stdin?.on('error', () => {}); // EPIPE reaches the writer through its stdin-ack
  child.stdout?.on('data', (data: Buffer) => send({ type: 'output', id, stream: 'stdout', data }));
  child.stderr?.on('data', (data: Buffer) => send({ type: 'output', id, stream: 'stderr', data }));
  child.once('exit', (exitCode, signal) => {
    entry.exited = true;
    killQuietly(pid, 'SIGKILL'); // whatever the leader left running in its group
    send({ type: 'exit', id, exitCode, signal });
  });
  child.once('close', () => {
    groups.delete(id);
    send({ type: 'closed', id });
  });
}

function writeStdin(request: Extract<LauncherRequest, { type: 'stdin' }>): void {
  const { id, seq } = request;
  const stdin = groups.get(id)?.child.stdin;
  if (!stdin || !stdin.writable || groups.get(id)?.exited) {
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

function killAllAndExit(code: number): never {
  for (const entry of groups.values()) if (!entry.exited) killAllQuietly(entry.pid);
  process.exit(code);
}

process.on('message', (message: unknown) => {
  if (!isLauncherRequest(message)) return;
  switch (message.type) {
    case 'spawn':
      return launch(message);
    case 'stdin':
      return writeStdin(message);
    case 'stdin-end':
      groups.get(message.id)?.child.stdin?.end();
      return;
    case 'signal':
      return signalGroup(message);
  }
});
process.on('disconnect', () => killAllAndExit(0));
process.on('SIGTERM', () => killAllAndExit(0));
process.on('uncaughtException', (error) => {
  process.stderr.write(`toolwarden process launcher: ${error.stack ?? error.message}\n`);
  killAllAndExit(1);
});
send({ type: 'ready' });
