/**
 * The process launcher's entry: a small Node process, started by the runtime while the runtime is still small,
 * that spawns shell commands on the runtime's behalf. Forking the runtime itself (gigabytes of RSS with hundreds of
 * session workers) copies its page tables and blocks its event loop for tens of milliseconds per command; forking
 * this process costs about a millisecond. Every group it starts is SIGKILLed when the runtime goes away: on IPC
 * disconnect, on SIGTERM (the parent-death signal set through setpriv), and on a crash of the launcher itself.
 */
import type { Socket } from 'node:net';
import { markInheritedFdsCloseOnExec } from './close-inherited-fds.js';
import { createLauncherCore } from './launcher-core.js';
import { isLauncherRequest, type LauncherEvent } from '../../src/protocol/launcher.js';

function send(event: LauncherEvent): void {
  if (process.connected) process.send?.(event);
}

const core = createLauncherCore({
  send,
  // The socket is closed here once it crossed: the runtime then holds the only other end.
  handOver(event, stream) {
    if (process.connected) process.send?.(event, stream as Socket);
  },
});

function killAllAndExit(code: number): never {
  core.killAll();
  process.exit(code);
}

process.on('message', (message: unknown) => {
  if (isLauncherRequest(message)) core.handle(message);
});
process.on('disconnect', () => killAllAndExit(0));
process.on('SIGTERM', () => killAllAndExit(0));
process.on('uncaughtException', (error) => {
  process.stderr.write(`toolwarden process launcher: ${error.stack ?? error.message}\n`);
  killAllAndExit(1);
});
// Before any spawn: descriptors the host leaked into this process must not reach commands. Without koffi (or on an
// old kernel) they still do; the launcher says so on stderr once and serves anyway.
const unmarked = await markInheritedFdsCloseOnExec();
if (unmarked !== undefined) process.stderr.write(`toolwarden process launcher: inherited descriptors stay inheritable: ${unmarked}\n`);
send({ type: 'ready' });
