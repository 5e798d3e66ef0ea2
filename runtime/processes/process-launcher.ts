import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isLauncherEvent, type LauncherEvent, type LauncherRequest } from '../../src/protocol/launcher.js';
import { findOnPath } from './shell.js';

/** What a spawn request carries besides its type and id. */
export type LaunchSpec = Omit<Extract<LauncherRequest, { type: 'spawn' }>, 'type' | 'id'>;

/** Receives one group's events; `onLost` when the launcher died before the group's `closed`. */
export interface GroupListener {
  /** `handle` is what came with the IPC message (a `stdio-handle`'s socket); a zygote's events carry none. */
  onEvent(event: Exclude<LauncherEvent, { type: 'ready' }>, handle?: unknown): void;
  onLost(): void;
}

const START_TIMEOUT_MS = 10_000;

/**
 * The runtime's side of a launcher process (launcher-main.ts): routes each group's events to its listener, keeps
 * the host alive only while some group is open, and tells every open group when the launcher is gone.
 */
export class ProcessLauncher {
  private readonly listeners = new Map<number, GroupListener>();
  private nextId = 0;
  private alive = true;

  private constructor(private readonly child: ChildProcess, onGone: () => void) {
    child.on('message', (message: unknown, handle: unknown) => {
      if (!isLauncherEvent(message) || message.type === 'ready') return;
      const listener = this.listeners.get(message.id);
      if (listener === undefined && handle instanceof Socket) handle.destroy(); // a group no one listens to any more
      listener?.onEvent(message, handle);
      if (message.type === 'closed') this.release(message.id);
    });
    const gone = (): void => {
      if (!this.alive) return;
      this.alive = false;
      onGone();
      const lost = [...this.listeners.values()];
      this.listeners.clear();
      for (const listener of lost) listener.onLost();
    };
    child.once('exit', gone);
    child.once('disconnect', gone);
    child.on('error', gone);
    this.updateRef();
  }

  /**
   * Starts a launcher from `entry` and resolves once it reports ready. On Linux it runs under `setpriv --pdeathsig
   * TERM` when setpriv exists, so it also ends (killing its groups) if the runtime dies without closing the channel.
   */
  static async start(entry: string, onGone: () => void): Promise<ProcessLauncher> {
    if (!existsSync(entry)) throw new Error(`its entry ${entry} does not exist (build with npx tsc -p tsconfig.json)`);
    const attempts: Array<[string, string[]]> = [[process.execPath, [entry]]];
    if (process.platform === 'linux' && findOnPath('setpriv', process.env['PATH'] ?? '', 'linux')) {
      attempts.unshift(['setpriv', ['--pdeathsig', 'TERM', process.execPath, entry]]);
    }
    let failure: Error | undefined;
    for (const [file, args] of attempts) {
      try {
        return new ProcessLauncher(await startChild(file, args), onGone);
      } catch (error) {
        failure = error as Error;
      }
    }
    throw failure ?? new Error('no way to start the launcher');
  }

  /** The launcher runs on the host: the pids it reports are host pids. */
  readonly reportsHostPids = true;

  /** Whether the launcher process is still there to serve requests. */
  get isAlive(): boolean {
    return this.alive;
  }

  /** Asks the launcher to spawn a group; its events go to `listener`. Returns the group's id. */
  open(spec: LaunchSpec, listener: GroupListener): number {
    const id = this.nextId++;
    this.listeners.set(id, listener);
    this.updateRef();
    if (!this.send({ type: 'spawn', id, ...spec })) {
      this.release(id);
      queueMicrotask(() => listener.onLost());
    }
    return id;
  }

  /** Sends a request about an open group; false when the launcher is gone. */
  send(request: LauncherRequest): boolean {
    if (!this.alive || !this.child.connected) return false;
    this.child.send(request);
    return true;
  }

  private release(id: number): void {
    this.listeners.delete(id);
    this.updateRef();
  }

  // An idle launcher must not keep the host running; one with open groups must, as a direct child would.
  private updateRef(): void {
    if (this.listeners.size > 0) this.child.channel?.ref();
    else this.child.channel?.unref();
  }
}

/** The compiled launcher entry; from TypeScript sources (vitest) the build in dist/ is used, like worker files. */
export function launcherEntryPath(): string {
  const beside = fileURLToPath(new URL('./launcher-main.js', import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL('../../dist/runtime/processes/launcher-main.js', import.meta.url));
}

function startChild(file: string, args: string[]): Promise<ChildProcess> {
  const env = { ...process.env };
  delete env['NODE_OPTIONS']; // the host's loaders and flags are not the launcher's business
  const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced', env, cwd: '/' });
  child.unref();
  return new Promise((resolve, reject) => {
    const fail = (reason: string): void => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.join(' ')}: ${reason}`));
    };
    const onMessage = (message: unknown): void => {
      if (!isLauncherEvent(message) || message.type !== 'ready') return;
      cleanup();
      resolve(child);
    };
    const onError = (error: Error): void => fail(error.message);
    const onExit = (code: number | null, signal: string | null): void => fail(`exited before it was ready (${signal ?? `code ${code}`})`);
    const timer = setTimeout(() => fail(`not ready after ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('error', onError);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('error', onError);
    child.once('exit', onExit);
  });
}
