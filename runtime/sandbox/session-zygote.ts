import { lstatSync } from 'node:fs';
import { MISSING_INODE } from '../../src/sandbox/blocked-changes.js';
import type { SandboxScope, SandboxZygoteSupport } from '../../src/sandbox/types.js';
import type { SpawnedGroup, SpawnGroupOptions } from '../processes/spawn-group.js';
import type { BlockedGuard } from './blocked-guard.js';
import { SandboxZygote, zygoteProgram } from './zygote.js';
import type { ZygoteSlots } from './zygote-slots.js';

/** What a session's zygotes are built with, and how they hold the workspace's mount-point stubs. */
export interface SessionZygoteOptions {
  readonly support: SandboxZygoteSupport;
  /** Starts a zygote from its argv. @default SandboxZygote.start */
  readonly start?: (argv: readonly string[], options: { requireSealed?: boolean }) => Promise<SandboxZygote>;
  /** Counts `paths` as mounted by one more running sandbox (see BashService's stub bookkeeping). */
  hold(paths: readonly string[]): void;
  /** The reverse of hold once the zygote is gone; removes the stubs nothing else mounts. */
  release(paths: readonly string[]): Promise<void>;
  warn(message: string): void;
  /** The runtime's count of live zygotes and their idle time; without it, no cap and no idle close. */
  readonly slots?: ZygoteSlots;
}

/** One command's use of a zygote: how to spawn it there, and the zygote (to tell a lost sandbox after the fact). */
export interface ZygoteLease {
  readonly zygote: SandboxZygote;
  spawn(opts: SpawnGroupOptions): Promise<SpawnedGroup>;
  /** Says the command is over (whatever its end): the zygote is closed after the idle time with none running. */
  release(): void;
}

interface Started {
  readonly zygote: SandboxZygote;
  /** Every blocked path its mounts cover (bound read-only or stubbed), with the inode it had when it started. */
  readonly mounts: ReadonlyMap<string, string>;
  /** Settles once the zygote is gone and its stubs were released. */
  readonly released: Promise<void>;
}

/**
 * A session's standing sandboxes: at most one current zygote, started lazily at the first sandboxed command with
 * that command's mounts. A later command uses it only when its own walk finds exactly the blocked paths the zygote
 * mounted, each still the same inode; otherwise (the host ran `git init sub`, replaced `.git/config`, removed a
 * stub) the zygote is retired (closed once its running commands end) and a fresh one is started with the new
 * mounts, so a blocked path that exists is read-only for every command, as with a bwrap per command. A zygote that
 * died is replaced the same way. If a zygote cannot start, the session falls back to a bwrap per command.
 */
export class SessionZygote {
  readonly #options: SessionZygoteOptions;
  #current: Promise<Started | undefined> | undefined;
  readonly #all = new Set<Promise<Started | undefined>>();
  #disabled = false;
  #closed = false;
  /** Commands holding a lease now, and the timer that closes an idle zygote. */
  #active = 0;
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(options: SessionZygoteOptions) {
    this.#options = options;
  }

  /**
   * A zygote whose mounts are exactly `guard`'s for this command, started if need be; undefined when the session
   * runs commands in a bwrap each (start failed, or closed). `held` are the stubs the command's guard holds.
   */
  async lease(guard: BlockedGuard, scope: SandboxScope, held: readonly string[]): Promise<ZygoteLease | undefined> {
    if (this.#disabled || this.#closed) return undefined;
    clearTimeout(this.#idleTimer);
    const pending = this.#current;
    const current = await pending;
    if (current !== undefined && current.zygote.failure === undefined && sameMounts(current.mounts, guard.mounts)) {
      return this.#leaseOf(current.zygote, scope);
    }
    // Another command may have replaced it while this one waited: use that one if it fits, else start afresh.
    if (this.#current !== pending) return this.lease(guard, scope, held);
    current?.zygote.retire();
    this.#current = undefined;
    // Past the runtime's cap this command gets a bubblewrap of its own, as with sandboxZygote: false; a later one may
    // find a free slot.
    if (this.#options.slots?.take() === false) return undefined;
    const fresh = await (this.#current = this.#startHoldingSlot(scope, held));
    return fresh === undefined || fresh.zygote.failure !== undefined ? undefined : this.#leaseOf(fresh.zygote, scope);
  }

  /** Kills every zygote of the session from outside and waits until each is gone and its stubs released. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    this.#current = undefined;
    const all = await Promise.all(this.#all);
    await Promise.all(all.map((started) => started?.zygote.close()));
    await Promise.all(all.map((started) => started?.released));
  }

  #leaseOf(zygote: SandboxZygote, scope: SandboxScope): ZygoteLease {
    const { support } = this.#options;
    this.#active += 1;
    let released = false;
    return {
      zygote,
      spawn: (opts) => zygote.spawn(support.command([opts.shell.file, ...opts.shell.args(opts.command)], scope, opts.cwd, opts.env)),
      release: () => {
        if (released) return;
        released = true;
        this.#active -= 1;
        // After the result is out: /proc reads are not worth a command's latency.
        const cpuSeconds = scope.limits?.cpuSeconds;
        if (cpuSeconds !== undefined) setImmediate(() => this.#retireIfSpent(zygote, cpuSeconds));
        if (this.#active === 0) this.#closeWhenIdle();
      },
    };
  }

  // The zygote holds the per-command RLIMIT_CPU itself (and dies at it): past half of it, the next command starts a
  // fresh one, and this one closes once its running commands end.
  #retireIfSpent(zygote: SandboxZygote, cpuSeconds: number): void {
    const current = this.#current;
    if (current === undefined || zygote.failure !== undefined || zygote.cpuSecondsUsed() < cpuSeconds / 2) return;
    void current.then((started) => {
      if (started?.zygote !== zygote) return;
      if (this.#current === current) this.#current = undefined;
      zygote.retire();
    });
  }

  // With no command running for the idle time, the current zygote is retired (it closes at once, having none) and
  // its slot freed; the next command starts a fresh one.
  #closeWhenIdle(): void {
    const idleMs = this.#options.slots?.settings.idleMs;
    if (idleMs === undefined || this.#closed) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      const current = this.#current;
      if (this.#active > 0 || current === undefined) return;
      this.#current = undefined;
      void current.then((started) => started?.zygote.retire());
    }, idleMs);
    this.#idleTimer.unref();
  }

  // The slot taken for this start is given back however it ends, a synchronous throw before the start included (an
  // lstat of a mount path that a racing command made unusable), or the runtime's cap would shrink for good; a rejected
  // current start would also fail every later command of the session.
  #startHoldingSlot(scope: SandboxScope, held: readonly string[]): Promise<Started | undefined> {
    try {
      return this.#start(scope, held);
    } catch (error) {
      this.#options.slots?.give();
      void this.#options.release(held);
      // This command gets a bubblewrap of its own; the next one tries a zygote again.
      this.#options.warn(`the session's standing sandbox could not start for this command, which gets a bubblewrap of its own: ${(error as Error).message}`);
      return Promise.resolve(undefined);
    }
  }

  #start(scope: SandboxScope, held: readonly string[]): Promise<Started | undefined> {
    const { support, hold, release } = this.#options;
    const start = this.#options.start ?? SandboxZygote.start;
    hold(held);
    const stubs = scope.stubsInWorkspace ?? [];
    // The bound paths' inodes are taken before the start; the stubs exist (as bwrap's mount points) only after it.
    const mounts = mountsOf(scope.blockedInWorkspace);
    const requireSealed = this.#options.slots?.settings.allowZygoteMemoryWrites !== true;
    const started = start(support.argv(scope, zygoteProgram()), { requireSealed }).then(
      (zygote): Started => {
        const released = zygote.ended.then(() => {
          this.#options.slots?.give();
          return release(held);
        });
        if (this.#closed) void zygote.close();
        for (const [path, inode] of mountsOf(stubs)) mounts.set(path, inode);
        return { zygote, mounts, released };
      },
      (error: unknown) => {
        this.#options.slots?.give();
        this.#disabled = true;
        this.#options.warn(`the session's standing sandbox could not start, so each command gets a bubblewrap of its own: ${(error as Error).message}`);
        void release(held);
        return undefined;
      },
    );
    this.#all.add(started);
    return started;
  }
}
function mountsOf(paths: readonly string[]): Map<string, string> {
  return new Map(paths.map((path) => [path, inodeOf(path)]));
}

function inodeOf(path: string): string {
  return lstatSync(path, { throwIfNoEntry: false })?.ino.toString() ?? MISSING_INODE;
}

function sameMounts(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [path, inode] of a) if (b.get(path) !== inode) return false;
  return true;
}
