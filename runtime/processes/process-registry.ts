import { statSync } from 'node:fs';
import iconv from 'iconv-lite';
import { ToolwardenError, type ErrorCode } from '../../src/errors.js';
import { OutputRingBuffer } from '../../src/ring-buffer.js';
import { decodeStream } from './decoded-output.js';
import type { CommandWrapper, ShellSpec } from './shell.js';
import { spawnGroup, type GroupExit, type SpawnedGroup } from './spawn-group.js';

/** How long stop and closeAll wait for a SIGKILLed group's output to close before they return anyway. */
const KILL_WAIT_MS = 5_000;

/** `killed`: stopped by {@link ProcessRegistry.stop}/`closeAll` or ended by a signal; `failed`: never ran. */
export type ProcessStatus = 'running' | 'exited' | 'killed' | 'failed';

/** A background process as the model sees it. Times are ISO 8601; `pid` is the host pid of the shell. */
export interface ProcessSnapshot {
  processId: string;
  command: string;
  status: ProcessStatus;
  pid: number | undefined;
  exitCode: number | null;
  signal: string | null;
  startedAt: string;
  endedAt: string | null;
  cwd: string;
  /** What the process's guard found once it ended (see {@link ProcessGuard}); absent when it found nothing. */
  finding?: ProcessFinding;
}

/** A refusal a guard found after its process ended, e.g. BLOCKED_PATH_WRITTEN; shown by status, logs, stop and list. */
export interface ProcessFinding {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** A check around one background process: the wrapper to spawn it with, and what to look at once it ended. */
export interface ProcessGuard {
  readonly wrap: CommandWrapper;
  /** Runs once the whole group has ended (exit, stop or close); its finding stays on the process's snapshot. */
  finish(): Promise<ProcessFinding | undefined>;
}

/** A page of a background process's interleaved stdout and stderr (see OutputRingBuffer for offsets). */
export interface ProcessLogs {
  processId: string;
  text: string;
  startOffset: number;
  nextOffset: number;
  truncated: boolean;
  status: ProcessStatus;
  exitCode: number | null;
  finding?: ProcessFinding;
}

/** Settings of one session's registry; see `Limits` for the matching session limits. */
export interface ProcessRegistryOptions {
  /** Live background processes allowed at once. */
  maxProcesses: number;
  /** Ring buffer capacity per process, in UTF-16 units. */
  maxOutputChars: number;
  /** Time between SIGTERM and SIGKILL in {@link ProcessRegistry.stop}. */
  stopGraceMs: number;
  /** iconv-lite encoding for output and for text written to stdin. */
  encoding: string;
  shell: ShellSpec;
  /** The children's whole environment. */
  env: Record<string, string>;
  wrap?: CommandWrapper;
  /** Makes each process's guard, which wraps it instead of `wrap` and checks after it. */
  guard?: (command: string) => ProcessGuard;
  /** Ended processes kept for status/logs; the oldest are forgotten past this. @default 32 */
  maxRetainedEnded?: number;
}

interface Entry {
  processId: string;
  command: string;
  cwd: string;
  startedAt: string;
  group: SpawnedGroup;
  buffer: OutputRingBuffer;
  exit: GroupExit | undefined;
  endedAt: string | null;
  finding: ProcessFinding | undefined;
  stopRequested: boolean;
  finished: Promise<void>;
}

/**
 * One session's background processes: each runs in its own process group, its stdout and stderr decoded
 * into one ring buffer. Closing the registry kills every group and waits for them.
 * @example const id = registry.start('npm run dev', ws).processId; registry.logs(id, 0, 4000)
 */
export class ProcessRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly starting = new Set<Promise<ProcessSnapshot>>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: ProcessRegistryOptions) {
    for (const key of ['maxProcesses', 'maxOutputChars', 'stopGraceMs'] as const) {
      if (!Number.isInteger(opts[key]) || opts[key] < 0) throw new ToolwardenError('INVALID_OPTIONS', `${key} ${opts[key]} must be a non-negative integer`);
    }
  }

  /** Starts a background command in `cwd` (already checked against the workspace); resolves once it runs. */
  async start(command: string, cwd: string): Promise<ProcessSnapshot> {
    if (this.closed) throw new ToolwardenError('SESSION_CLOSED', 'the session is closed; its process registry starts no more processes');
    const live = [...this.entries.values()].filter((e) => e.exit === undefined).length + this.starting.size;
    if (live >= this.opts.maxProcesses) {
      throw new ToolwardenError('PROCESS_LIMIT', `${live} background processes are running and maxProcesses is ${this.opts.maxProcesses}; stop one before starting "${command}"`);
    }
    if (!isDirectory(cwd)) throw new ToolwardenError('SPAWN_FAILED', `cannot start "${command}": cwd ${cwd} is not an existing directory`);
    // Counted while in flight, so concurrent starts cannot together pass maxProcesses, and closeAll waits for them.
    const starting = this.launch(command, cwd);
    this.starting.add(starting);
    try {
      return await starting;
    } finally {
      this.starting.delete(starting);
    }
  }

  private async launch(command: string, cwd: string): Promise<ProcessSnapshot> {
    const guard = this.opts.guard?.(command);
    const group = await spawnGroup({ command, cwd, env: this.opts.env, shell: this.opts.shell, wrap: guard?.wrap ?? this.opts.wrap, stdin: 'pipe' });
    if (group.pid === undefined) {
      void group.done.then(() => guard?.finish());
      throw new ToolwardenError('SPAWN_FAILED', `cannot start "${command}": the shell "${this.opts.shell.file}" could not be spawned (is it on the child's PATH?)`);
    }
    if (this.closed) {
      group.signal('SIGKILL');
      await group.done;
      await guard?.finish();
      throw new ToolwardenError('SESSION_CLOSED', `the session closed while "${command}" was starting; it was killed`);
    }
    // A child that exits or closes stdin makes writes fail with EPIPE; write() reports that, nothing may crash.
    group.stdin?.on('error', () => {});
    const buffer = new OutputRingBuffer(Math.max(2, this.opts.maxOutputChars));
    const entry: Entry = {
      processId: `proc-${this.nextId++}`, command, cwd, startedAt: new Date().toISOString(), group, buffer,
      exit: undefined, endedAt: null, finding: undefined, stopRequested: false, finished: Promise.resolve(),
    };
    const decoded = Promise.all([
      decodeStream(group.stdout, this.opts.encoding, (text) => buffer.append(text)),
      decodeStream(group.stderr, this.opts.encoding, (text) => buffer.append(text)),
    ]);
    entry.finished = Promise.all([group.done, decoded]).then(async ([exit]) => {
      entry.finding = await guard?.finish();
      entry.exit = exit;
      entry.endedAt = new Date().toISOString();
    });
    this.entries.set(entry.processId, entry);
    this.forgetOldEnded();
    return snapshotOf(entry);
  }

  /** The current snapshot of a process. */
  status(processId: string): ProcessSnapshot {
    return snapshotOf(this.get(processId));
  }

  /** Output from `offset` (default: the oldest kept), at most `limit` UTF-16 units. */
  logs(processId: string, offset?: number, limit?: number): ProcessLogs {
    const entry = this.get(processId);
    let page;
    try {
      page = entry.buffer.read(offset, limit);
    } catch (error) {
      throw new ToolwardenError('INVALID_ARGS', `logs of ${processId}: ${(error as Error).message}`);
    }
    const { status, exitCode, finding } = snapshotOf(entry);
    return { processId, ...page, status, exitCode, ...(finding === undefined ? {} : { finding }) };
  }

  /** Writes `input` (encoded like the output) to the process's stdin; `PROCESS_EXITED` once it has ended. */
  async write(processId: string, input: string): Promise<void> {
    const entry = this.get(processId);
    const stdin = entry.group.stdin;
    if (entry.exit !== undefined || entry.group.exited || !stdin || !stdin.writable) {
      throw new ToolwardenError('PROCESS_EXITED', `${processId} has ended or closed its stdin; it takes no more input`);
    }
    const bytes = iconv.encode(input, this.opts.encoding);
    await new Promise<void>((resolve, reject) => {
      stdin.write(bytes, (error) => {
        if (error) reject(new ToolwardenError('PROCESS_EXITED', `writing to ${processId} failed: ${error.message}`));
        else resolve();
      });
    });
  }

  /** SIGTERM to the process group, SIGKILL after `stopGraceMs` if it is still running; resolves once it ended. */
  async stop(processId: string): Promise<ProcessSnapshot> {
    const entry = this.get(processId);
    if (entry.exit === undefined) {
      entry.stopRequested = true;
      entry.group.signal('SIGTERM');
      if (!(await settlesWithin(entry.finished, this.opts.stopGraceMs))) {
        entry.group.signal('SIGKILL');
        await settlesWithin(entry.finished, KILL_WAIT_MS);
      }
    }
    return snapshotOf(entry);
  }

  /** Snapshots of every process this registry still remembers, oldest first. */
  list(): ProcessSnapshot[] {
    return [...this.entries.values()].map(snapshotOf);
  }

  /** SIGKILLs every live group and waits for all of them; later starts fail with SESSION_CLOSED. Idempotent. */
  async closeAll(): Promise<void> {
    this.closed = true;
    // A start in flight kills its own group once it sees the registry closed.
    await Promise.allSettled([...this.starting]);
    const entries = [...this.entries.values()];
    for (const entry of entries) {
      if (entry.exit === undefined) {
        entry.stopRequested = true;
        entry.group.signal('SIGKILL');
      }
    }
    // Bounded: a process that escaped every kill must not hang the session's close forever.
    await Promise.all(entries.map((e) => settlesWithin(e.finished, KILL_WAIT_MS)));
  }

  private get(processId: string): Entry {
    const entry = this.entries.get(processId);
    if (!entry) throw new ToolwardenError('PROCESS_NOT_FOUND', `no background process "${processId}" in this session; list shows the ones that exist`);
    return entry;
  }

  private forgetOldEnded(): void {
    const ended = [...this.entries.values()].filter((e) => e.exit !== undefined);
    const excess = ended.length - (this.opts.maxRetainedEnded ?? 32);
    for (const entry of ended.slice(0, Math.max(0, excess))) this.entries.delete(entry.processId);
  }
}

function snapshotOf(entry: Entry): ProcessSnapshot {
  return {
    processId: entry.processId,
    command: entry.command,
    status: statusOf(entry),
    pid: entry.group.pid,
    exitCode: entry.exit?.exitCode ?? null,
    signal: entry.exit?.signal ?? null,
    startedAt: entry.startedAt,
    endedAt: entry.endedAt,
    cwd: entry.cwd,
    ...(entry.finding === undefined ? {} : { finding: entry.finding }),
  };
}

function statusOf(entry: Entry): ProcessStatus {
  if (entry.exit === undefined) return 'running';
  if (entry.exit.spawnError !== undefined) return 'failed';
  return entry.stopRequested || entry.exit.signal !== null ? 'killed' : 'exited';
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
