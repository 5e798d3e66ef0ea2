import { performance } from 'node:perf_hooks';
import { ToolwardenError } from '../../src/errors.js';
import { CappedText, decodeStream } from './decoded-output.js';
import type { CommandWrapper, ShellSpec } from './shell.js';
import { spawnGroup, type SpawnedGroup, type SpawnGroupOptions } from './spawn-group.js';

/** A foreground command: run through `shell` in `cwd` with exactly `env`, decoded with `encoding`. */
export interface ExecOptions {
  command: string;
  /** An absolute directory, already checked against the workspace by the caller. */
  cwd: string;
  /** The child's whole environment (see buildChildEnv); nothing of the host is added. */
  env: Record<string, string>;
  /** The whole process group is SIGKILLed after this many milliseconds. */
  timeoutMs: number;
  /** UTF-16 units kept per stream; the rest is counted in `stdoutDropped` / `stderrDropped`. */
  maxOutputChars: number;
  /** An iconv-lite encoding name (see resolveShellCharset). */
  encoding: string;
  shell: ShellSpec;
  wrap?: CommandWrapper;
  /** Aborting kills the whole process group; the outcome then has `aborted: true`. */
  signal?: AbortSignal;
  /** Spawns the group instead of {@link spawnGroup} (a session's sandbox zygote). @default spawnGroup */
  spawn?: (opts: SpawnGroupOptions) => Promise<SpawnedGroup>;
}

/** How a foreground command ended and what it printed (stdin was empty). */
export interface ExecOutcome {
  stdout: string;
  stderr: string;
  /** The shell's exit code; null when it was ended by a signal. */
  exitCode: number | null;
  /** The signal that ended the shell, e.g. `SIGKILL`; null when it exited on its own. */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  stdoutDropped: number;
  stderrDropped: number;
}

/**
 * Runs a self-terminating command and waits for it. On timeout or abort the whole process group is
 * SIGKILLed; when the shell exits, anything it left running in its group is killed too, so no orphans remain.
 * Throws `SPAWN_FAILED` when the shell cannot be started.
 * @example await execCommand({ command: 'ls', cwd: ws, env, timeoutMs: 30_000, maxOutputChars: 200_000, encoding: 'utf-8', shell })
 */
export async function execCommand(opts: ExecOptions): Promise<ExecOutcome> {
  if (!Number.isInteger(opts.timeoutMs) || opts.timeoutMs <= 0) {
    throw new ToolwardenError('INVALID_ARGS', `timeoutMs ${opts.timeoutMs} must be a positive integer of milliseconds`);
  }
  if (!Number.isInteger(opts.maxOutputChars) || opts.maxOutputChars < 0) {
    throw new ToolwardenError('INVALID_ARGS', `maxOutputChars ${opts.maxOutputChars} must be a non-negative integer`);
  }
  const started = performance.now();
  const stdout = new CappedText(opts.maxOutputChars);
  const stderr = new CappedText(opts.maxOutputChars);
  if (opts.signal?.aborted) return outcomeOf(stdout, stderr, { exitCode: null, signal: null }, false, true, started);
  const group = await (opts.spawn ?? spawnGroup)({ command: opts.command, cwd: opts.cwd, env: opts.env, shell: opts.shell, wrap: opts.wrap, stdin: 'ignore' });
  const decoded = Promise.all([
    decodeStream(group.stdout, opts.encoding, (text) => stdout.append(text)),
    decodeStream(group.stderr, opts.encoding, (text) => stderr.append(text)),
  ]);
  let timedOut = false;
  let aborted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    group.signal('SIGKILL');
  }, opts.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    group.signal('SIGKILL');
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort(); // aborted while the spawn was in flight
  try {
    const exit = await group.done;
    if (exit.spawnError !== undefined) {
      throw new ToolwardenError('SPAWN_FAILED', `could not run "${opts.command}" in ${opts.cwd}: ${exit.spawnError}`);
    }
    await decoded;
    return outcomeOf(stdout, stderr, exit, timedOut, aborted, started);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

function outcomeOf(
  stdout: CappedText,
  stderr: CappedText,
  exit: { exitCode: number | null; signal: string | null },
  timedOut: boolean,
  aborted: boolean,
  started: number,
): ExecOutcome {
  return {
    stdout: stdout.text,
    stderr: stderr.text,
    exitCode: exit.exitCode,
    signal: exit.signal,
    timedOut,
    aborted,
    durationMs: Math.round(performance.now() - started),
    stdoutDropped: stdout.dropped,
    stderrDropped: stderr.dropped,
  };
}
