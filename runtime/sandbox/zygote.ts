import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { encodeFrame, FrameDecoder, FrameError } from '../../src/protocol/zygote-frames.js';
import type { ZygoteCommand, ZygoteProgram } from '../../src/sandbox/types.js';
import { SYSTEM_DIRS } from '../../src/sandbox/system-mounts.js';
import { cpuSecondsOf, findTreeBelow, isRunning, startTimeOf } from '../processes/descendants.js';
import { launchGroup, type GroupLauncher } from '../processes/launched-group.js';
import { isLauncherEvent, type LauncherEvent, type LauncherRequest } from '../../src/protocol/launcher.js';
import type { GroupListener, LaunchSpec } from '../processes/process-launcher.js';
import { acquireLauncher } from '../processes/shared-launcher.js';
import { nonDumpableModuleDirs } from './non-dumpable.js';
import type { SpawnedGroup } from '../processes/spawn-group.js';

/** How long the zygote may take to start and say ready. @default 10000 */
const READY_TIMEOUT_MS = 10_000;
/** A SIGKILLed command's `closed` must arrive this soon, or the whole sandbox is killed from outside. */
export const KILL_CONFIRM_MS = 500;
/** A spawn must be answered (spawned or spawn-error) this soon, or the whole sandbox is killed from outside. */
export const SPAWN_CONFIRM_MS = 2_000;
/** A command's `closed` must follow its `exit` this soon (the zygote reaps orphans for up to 500 ms in between). */
export const CLOSE_CONFIRM_MS = 1_000;
/** How long a kill from outside waits for the sandbox's processes to be gone before it reports the loss anyway. */
const GONE_WAIT_MS = 5_000;
const STDERR_KEPT = 4_096;
const STRAY_RECHECK_MS = 20;
/** How many times the stray check looks again before it kills the sandbox: 200 ms in all. */
const STRAY_RECHECKS = 10;
/** The {@link SandboxZygote.failure} of a zygote closed by its session, not lost. */
export const CLOSED = 'the session closed';
const RETIRED = 'retired: its mounts no longer fit the workspace';

/**
 * A session's standing sandbox (see zygote-main.ts): one bwrap, started through the host's process launcher, in
 * which each sandboxed command is spawned. Everything the zygote says is checked as if an attacker wrote it (a
 * command can rewrite its memory): frames are bounded, a malformed one kills the sandbox, events for unknown ids are
 * ignored, a kill it does not confirm within {@link KILL_CONFIRM_MS} (or a `closed` it owes after `exit`) kills the
 * whole sandbox from outside, and whenever no command runs the host checks that nothing but the zygote is left in
 * the sandbox's process tree. Pids it reports are namespace pids and are never signalled from the host.
 */
export class SandboxZygote implements GroupLauncher {
  readonly reportsHostPids = false;
  readonly #group: SpawnedGroup;
  readonly #hostPid: number;
  readonly #listeners = new Map<number, GroupListener>();
  readonly #timers = new Map<number, NodeJS.Timeout>();
  readonly #decoder = new FrameDecoder();
  /** The sandbox's processes when it said ready (host pid → start time): bwrap, its init, the zygote, the egress forwarder. */
  #baseline = new Map<number, string | undefined>();
  #nextId = 0;
  #ready: (() => void) | undefined;
  /** Whether a zygote that says it is not sealed is refused (unless the runtime allows zygote memory writes). */
  #requireSealed = true;
  #failure: string | undefined;
  #gone: Promise<void> | undefined;
  #stderr = '';
  #ended: (reason: string) => void = () => {};
  #retiring = false;
  /** Resolves, with the reason, once the sandbox is gone and every command in it was told. */
  readonly ended = new Promise<string>((resolve) => {
    this.#ended = resolve;
  });

  private constructor(group: SpawnedGroup, hostPid: number) {
    this.#group = group;
    this.#hostPid = hostPid;
    group.stdout?.on('data', (chunk: Buffer) => this.#receive(chunk));
    group.stdin?.on('error', () => {}); // writes pending when it dies fail here; its end is handled through `done`
    group.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = `${this.#stderr}${chunk.toString('utf8')}`.slice(-STDERR_KEPT);
    });
    // Frames it wrote before it died are read first: a command's `spawned` or `exit` may be among them.
    const drained = group.stdout === null ? Promise.resolve() : finished(group.stdout).catch(() => undefined);
    void Promise.all([group.done, drained]).then(() => this.#kill(`the sandbox zygote exited${this.#stderr.trim() === '' ? '' : `: ${this.#stderr.trim().slice(-300)}`}`));
  }

  /**
   * Starts a zygote from `argv` (the seccomp hop, bwrap and its layout, Node and the zygote entry) through the host's
   * process launcher and resolves once it said ready. Throws when there is no launcher or it does not start.
   */
  static async start(argv: readonly string[], options: { requireSealed?: boolean } = {}): Promise<SandboxZygote> {
    const launcher = await acquireLauncher();
    if (launcher === undefined) throw new Error('the host process launcher is unavailable');
    const [file = '', ...args] = argv;
    // Its frames go straight between this process and the zygote, not through the launcher too.
    // One libuv pool thread (it reads modules once, at start): the host's stray-process check after each command
    // reads every thread's children list, so fewer threads make it cheaper. Commands get their own environment.
    const env = { PATH: '/usr/bin:/bin', UV_THREADPOOL_SIZE: '1' };
    const group = await launchGroup(launcher, { file, args, cwd: '/', env, stdin: 'pipe', stopThroughDescendants: false, handOverStdio: true });
    if (group.pid === undefined) throw new Error(`could not start ${file}: ${(await group.done).spawnError ?? 'no pid'}`);
    const zygote = new SandboxZygote(group, group.pid);
    zygote.#requireSealed = options.requireSealed !== false;
    await zygote.#whenReady();
    return zygote;
  }

  /** Why the zygote is gone (undefined while it serves). */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** Why the zygote was lost: gone for any reason but its session's close or its retirement (undefined otherwise). */
  get lost(): string | undefined {
    return this.#failure === CLOSED || this.#failure === RETIRED ? undefined : this.#failure;
  }

  /** Commands running in it now. */
  get running(): number {
    return this.#listeners.size;
  }

  /** The host pids of its sandbox (bwrap, its init, the zygote, anything running), for checks and measurements. */
  hostPids(): number[] {
    return [this.#hostPid, ...findTreeBelow(this.#hostPid)];
  }

  /**
   * The most CPU time (seconds) any process of its start (the zygote, the egress forwarder, bwrap's) has used: they
   * hold the per-command RLIMIT_CPU themselves (see buildZygoteBwrapArgs), so the session retires the zygote before
   * one of them reaches it.
   */
  cpuSecondsUsed(): number {
    let most = 0;
    for (const [pid, start] of this.#baseline) {
      if (start !== undefined) most = Math.max(most, cpuSecondsOf(pid, start) ?? 0);
    }
    return most;
  }

  /** Spawns one command (built by buildZygoteCommand) in the sandbox; its group's pid is a namespace pid. */
  spawn(command: ZygoteCommand): Promise<SpawnedGroup> {
    return launchGroup(this, { file: command.file, args: command.args, cwd: command.cwd, env: command.env, stdin: 'ignore', stopThroughDescendants: false });
  }

  /** Closes the zygote once no command runs in it (its mounts no longer fit the workspace). */
  retire(): void {
    this.#retiring = true;
    if (this.#listeners.size === 0) void this.close(RETIRED);
  }

  /** Kills the whole sandbox from outside and resolves once its processes are gone. Idempotent. */
  close(reason = CLOSED): Promise<void> {
    return this.#kill(reason);
  }

  /** @internal launchGroup's side: registers a listener and asks the zygote to spawn. */
  open(spec: LaunchSpec, listener: GroupListener): number {
    const id = this.#nextId++;
    if (this.#failure !== undefined) {
      queueMicrotask(() => listener.onLost());
      return id;
    }
    this.#listeners.set(id, listener);
    if (!this.send({ type: 'spawn', id, ...spec })) {
      this.#listeners.delete(id);
      queueMicrotask(() => listener.onLost());
      return id;
    }
    // Until it answers, the caller has no group to kill: a zygote that never answers is killed with its sandbox.
    this.#expect(id, SPAWN_CONFIRM_MS, 'did not answer a spawn');
    return id;
  }

  /** @internal Sends a request; a SIGKILL starts the confirmation timer. False once the zygote is gone. */
  send(request: LauncherRequest): boolean {
    if (this.#failure !== undefined || !this.#group.stdin?.writable) return false;
    let frame: Buffer;
    try {
      frame = request.type === 'stdin' ? encodeFrame({ ...request, data: undefined }, request.data) : encodeFrame(request);
    } catch (error) {
      if (!(error instanceof FrameError)) throw error;
      return false;
    }
    this.#group.stdin.write(frame, () => {});
    if (request.type === 'signal' && request.signal === 'SIGKILL') this.#expect(request.id, KILL_CONFIRM_MS, 'did not confirm a kill');
    return true;
  }

  #whenReady(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => void this.#kill(`not ready after ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
      this.#ready = () => {
        clearTimeout(timer);
        this.#baseline = new Map(this.hostPids().map((pid) => [pid, startTimeOf(pid)]));
        resolve();
      };
      void this.#group.done.then(() => {
        clearTimeout(timer);
        if (this.#ready !== undefined) reject(new Error(this.#failure ?? 'the sandbox zygote exited before it was ready'));
      });
    });
  }

  #receive(chunk: Buffer): void {
    if (this.#failure !== undefined) return;
    let frames;
    try {
      frames = this.#decoder.push(chunk);
    } catch (error) {
      void this.#kill(`the sandbox zygote broke its framing (${(error as Error).message})`);
      return;
    }
    for (const { header, data } of frames) {
      const event: unknown = isRecord(header) && header['type'] === 'output' ? { ...header, data } : header;
      if (!isLauncherEvent(event)) {
        void this.#kill('the sandbox zygote sent a malformed event');
        return;
      }
      this.#handle(event);
      if (this.#failure !== undefined) return;
    }
  }

  #handle(event: LauncherEvent): void {
    if (event.type === 'ready') {
      // The self-test proved one zygote seals itself; each proves it again, and one that could not is not used: a
      // command could otherwise open its memory and spawn past its limits.
      if (event.unsealed !== undefined && this.#requireSealed) {
        void this.#kill(`the sandbox zygote could not make itself non-dumpable: ${event.unsealed}`);
        return;
      }
      const ready = this.#ready;
      this.#ready = undefined;
      ready?.();
      return;
    }
    const listener = this.#listeners.get(event.id);
    if (listener === undefined) return; // not a command of ours (or one already closed): ignored
    if (event.type === 'spawned' || event.type === 'spawn-error') this.#settle(event.id);
    if (event.type === 'exit') this.#expect(event.id, CLOSE_CONFIRM_MS, 'did not close a command after its exit');
    if (event.type !== 'closed') {
      listener.onEvent(event);
      return;
    }
    // Only the last running command is checked: with others running, their processes are expected in the tree.
    this.#settle(event.id);
    if (this.#listeners.size > 1 || this.#strayPids().length === 0) {
      this.#deliverClosed(event, listener);
      return;
    }
    // The zygote says its last command is over, yet more runs in the sandbox than at its start. A process killed a
    // moment ago may still be listed while it is reaped, and the egress forwarder's handler of a connection the
    // command just closed is still exiting, so look again a few times; the command's result waits.
    const recheck = (left: number): void => {
      setTimeout(() => {
        if (this.#failure !== undefined) return;
        if (this.#strayPids().length === 0) this.#deliverClosed(event, listener);
        else if (left > 1) recheck(left - 1);
        else void this.#kill('a process outlived its command in the session sandbox');
      }, STRAY_RECHECK_MS);
    };
    recheck(STRAY_RECHECKS);
  }

  #deliverClosed(event: Extract<LauncherEvent, { type: 'closed' }>, listener: GroupListener): void {
    this.#listeners.delete(event.id);
    listener.onEvent(event);
    if (this.#retiring && this.#listeners.size === 0) void this.close(RETIRED);
  }

  /** Host pids in the sandbox besides those of its start (bwrap, its init, the zygote, the egress forwarder). */
  #strayPids(): number[] {
    return findTreeBelow(this.#hostPid).filter((pid) => !this.#baseline.has(pid));
  }

  #settle(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  #expect(id: number, ms: number, what: string): void {
    if (this.#timers.has(id) || !this.#listeners.has(id)) return;
    const timer = setTimeout(() => void this.#kill(`the sandbox zygote ${what} within ${ms} ms`), ms);
    timer.unref();
    this.#timers.set(id, timer);
  }

  #kill(reason: string): Promise<void> {
    if (this.#gone !== undefined) return this.#gone;
    this.#failure = reason;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    // From here, not through the zygote: every process of the sandbox, then the launcher's kill of bwrap's group.
    // Those of its start still alive too: when bwrap is gone, its init and the zygote are no longer below it.
    const started = [...this.#baseline].filter(([pid, start]) => start !== undefined && startTimeOf(pid) === start).map(([pid]) => pid);
    const pids = [...new Set([...started, ...this.hostPids()])];
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    this.#group.signal('SIGKILL');
    this.#gone = this.#group.done.then(() => untilExited(pids, Date.now() + GONE_WAIT_MS)).then(() => {
      const lost = [...this.#listeners.values()];
      this.#listeners.clear();
      for (const listener of lost) listener.onLost();
      this.#ended(reason);
    });
    return this.#gone;
  }
}

/** The compiled zygote entry; from TypeScript sources (vitest) the build in dist/ is used, like the launcher's. */
export function zygoteEntryPath(): string {
  const beside = fileURLToPath(new URL('./zygote-main.js', import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL('../../dist/runtime/sandbox/zygote-main.js', import.meta.url));
}

// The zygote's own heap: it holds a few buffers per command, never a command's output.
const ZYGOTE_NODE_FLAGS = ['--max-old-space-size=32', '--max-semi-space-size=1', '--v8-pool-size=1'];

/**
 * Node and the zygote entry, with what must be visible read-only for them inside the sandbox: toolwarden's build
 * (the entry and the modules it imports), the package.json that makes it ESM, koffi (which makes the zygote
 * non-dumpable), and Node when outside /usr.
 */
export function zygoteProgram(): ZygoteProgram {
  const node = realpathSync(process.execPath);
  const entry = realpathSync(zygoteEntryPath());
  const dist = dirname(dirname(dirname(entry)));
  const manifest = join(dirname(dist), 'package.json');
  const readOnly = [dist, ...(existsSync(manifest) ? [manifest] : []), ...nonDumpableModuleDirs()];
  if (!SYSTEM_DIRS.some((dir) => node.startsWith(`${dir}/`))) readOnly.push(node);
  return { argv: [node, ...ZYGOTE_NODE_FLAGS, entry], readOnly };
}

/** Resolves once none of `pids` runs any more (zombies count as ended), or at `deadline`. */
async function untilExited(pids: readonly number[], deadline: number): Promise<void> {
  while (pids.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
