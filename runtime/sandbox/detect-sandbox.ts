import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** Whether bubblewrap can be used here, where it is, and why not when it cannot. */
export interface SandboxDetection {
  readonly available: boolean;
  readonly path?: string;
  readonly reason?: string;
  /** Whether bwrap can also make a user namespace here (then every command gets one). */
  readonly userNamespace?: boolean;
  /** util-linux prlimit, which sets each command's rlimits; without it commands run without them. */
  readonly prlimit?: string;
}

/** Where to look and how long the start probe may take. */
export interface DetectSandboxOptions {
  /** The PATH to search. @default process.env.PATH */
  readonly envPath?: string;
  /** Time the probe sandbox may take to start and exit. @default 5000 */
  readonly probeTimeoutMs?: number;
}

// The same namespaces the real layout uses, so a host that forbids one of them fails here, not on the first command.
const PROBE_ARGS = ['--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', 'true'];

/**
 * Finds `bwrap` on PATH and starts one throwaway sandbox to prove it works (user namespaces may be disabled).
 * Call it once per runtime and keep the answer.
 */
export async function detectSandbox(options: DetectSandboxOptions = {}): Promise<SandboxDetection> {
  if (process.platform !== 'linux') return { available: false, reason: `bubblewrap sandboxing needs Linux; this is ${process.platform}` };
  const path = findOnPath('bwrap', options.envPath ?? process.env['PATH'] ?? '');
  if (path === undefined) return { available: false, reason: 'bwrap was not found on PATH' };
  const timeoutMs = options.probeTimeoutMs ?? 5_000;
  const failure = await probe(path, PROBE_ARGS, timeoutMs);
  if (failure !== undefined) return { available: false, path, reason: `${path} cannot start a sandbox: ${failure}` };
  const userNamespace = (await probe(path, ['--unshare-user', '--disable-userns', ...PROBE_ARGS], timeoutMs)) === undefined;
  const prlimit = findOnPath('prlimit', options.envPath ?? process.env['PATH'] ?? '');
  return { available: true, path, userNamespace, ...(prlimit === undefined ? {} : { prlimit }) };
}

function findOnPath(program: string, envPath: string): string | undefined {
  for (const dir of envPath.split(delimiter)) {
    // A relative PATH entry would make the result depend on the cwd.
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

function probe(path: string, args: readonly string[], timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    // The system PATH inside, so a runtime PATH that holds little more than bwrap still finds `true`.
    execFile(path, args, { timeout: timeoutMs, killSignal: 'SIGKILL', env: { PATH: '/usr/bin:/bin' } }, (error, _stdout, stderr) => {
      if (error === null) resolve(undefined);
      else resolve(stderr.trim() || (error.killed ? `no exit within ${timeoutMs} ms` : error.message));
    });
  });
}
