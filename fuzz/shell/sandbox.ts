import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SANDBOX_TMPDIR } from './boundary.js';
import type { FixtureLayout } from './fixture.js';

const BWRAP = '/usr/bin/bwrap';
const STRACE = '/usr/bin/strace';
/** What strace records: every syscall naming a file, process creation, and the descriptor calls that change files. */
export const TRACE_SET = '%file,%process,fchdir,fchmod,fchown,ftruncate,fsetxattr,fremovexattr';

/** Whether bubblewrap and strace are installed and a traced process can start in a sandbox here. */
export function sandboxAvailable(): { ok: true } | { ok: false; why: string } {
  for (const bin of [BWRAP, STRACE]) if (!fs.existsSync(bin)) return { ok: false, why: `${bin} is not installed` };
  const probe = spawnSync(BWRAP, [...baseArgs(), '--', STRACE, '-f', '-qq', '-o', '/dev/null', '/usr/bin/true'], { timeout: 10_000, encoding: 'utf8' });
  if (probe.status !== 0) return { ok: false, why: `bwrap with strace does not start here: ${(probe.stderr || probe.error?.message || '').trim()}` };
  return { ok: true };
}

/** What one sandboxed run produced. */
export interface RunResult {
  trace: string;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
}

/** Bounds for one run. */
export interface RunLimits {
  /** Seconds the command may run (inside the sandbox, under `timeout`). */
  seconds: number;
  /** Bytes of stdout and stderr kept each. */
  maxOutput: number;
}

function baseArgs(): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--ro-bind', '/usr', '/usr'];
  for (const [link, target] of [['/bin', 'usr/bin'], ['/sbin', 'usr/sbin'], ['/lib', 'usr/lib'], ['/lib64', 'usr/lib64']] as const) {
    if (fs.existsSync(link)) args.push('--symlink', target, link);
  }
  for (const file of ['/etc/ld.so.cache', '/etc/alternatives', '/etc/localtime']) args.push('--ro-bind-try', file, file);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--dir', SANDBOX_TMPDIR);
  return args;
}

/**
 * Runs `command` with `bash -c` in a throwaway bubblewrap sandbox: only /usr (read-only) and the scratch copy
 * of the fixture, mounted at the fixture's own absolute path (so the checker's paths and the run's agree), no
 * network, a private /tmp. strace follows every process and writes its log into `traceDir`.
 */
export function runSandboxed(command: string, layout: FixtureLayout, scratch: string, traceDir: string, limits: RunLimits): Promise<RunResult> {
  const traceFile = '/tw-trace/trace';
  const args = [
    ...baseArgs(),
    '--bind', scratch, layout.base,
    '--bind', traceDir, '/tw-trace',
    '--chdir', layout.ws,
    '--',
    STRACE, '-f', '-qq', '-y', '-s', '4096', '-e', `trace=${TRACE_SET}`, '-o', traceFile,
    '/usr/bin/timeout', '-k', '1', String(limits.seconds), '/usr/bin/bash', '-c', command,
  ];
  const env = { PATH: '/usr/bin:/bin', HOME: layout.home, TMPDIR: SANDBOX_TMPDIR, LANG: 'C', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' };
  return new Promise((resolve) => {
    const child = spawn(BWRAP, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const keep = (acc: string, chunk: Buffer): string => (acc.length >= limits.maxOutput ? acc : acc + chunk.toString('latin1').slice(0, limits.maxOutput - acc.length));
    child.stdout.on('data', (c: Buffer) => (stdout = keep(stdout, c)));
    child.stderr.on('data', (c: Buffer) => (stderr = keep(stderr, c)));
    // The inner timeout ends the command; this only catches a sandbox that hangs on its own.
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, (limits.seconds + 4) * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      let trace = '';
      try {
        trace = fs.readFileSync(path.join(traceDir, 'trace'), 'utf8');
      } catch {
        trace = '';
      }
      resolve({ trace, stdout, stderr, exitCode: code, timedOut: timedOut || code === 124 });
    });
  });
}
