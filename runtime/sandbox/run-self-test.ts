import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { buildSelfTestScript, describeFailures, parseSelfTestOutput, type SelfTestCheck, type SelfTestTargets } from '../../src/sandbox/self-test.js';
import type { Sandbox, SandboxScope } from '../../src/sandbox/types.js';
import { privateDirsOf } from '../../src/sandbox/bwrap-args.js';
import { createBubblewrapSandbox, featuresOf } from './create-sandbox.js';
import { hostSandboxSys } from './host-sys.js';
import type { SandboxDetection } from './detect-sandbox.js';
import { createSessionCgroups, type SessionCgroups } from './session-cgroups.js';
import { SandboxZygote, zygoteProgram } from './zygote.js';

/** How long the one probe sandbox may take. @default 10000 */
export interface SelfTestOptions {
  readonly timeoutMs?: number;
  /** Check that the network is absent (the default; a session with net `'*'` shares the host's). @default true */
  readonly networkAbsent?: boolean;
}

/**
 * Proves the sandbox's properties instead of assuming them: one bwrap run with the layout a session gets (a
 * throwaway workspace with `.git/hooks`, a canary file outside it, default limits) runs every probe and reports
 * each property. Detection must have found a working bwrap.
 */
export async function runSandboxSelfTest(detection: SandboxDetection, options: SelfTestOptions = {}): Promise<SelfTestCheck[]> {
  return withProbe(detection, options, async (sandbox, targets, scope, script) => {
    const [file = '', ...args] = sandbox.wrap(['/bin/sh', '-c', script], scope, scope.workspaceRoot);
    const { stdout, failure } = await run(file, args, options.timeoutMs ?? 10_000);
    return parseSelfTestOutput(stdout, targets, failure);
  });
}

/**
 * The same properties proven for a command spawned by a session zygote (see SandboxZygote): one zygote started with
 * the probe's layout runs the probe. A zygote that cannot start fails every property, naming why.
 */
export async function runZygoteSelfTest(detection: SandboxDetection, options: SelfTestOptions = {}): Promise<SelfTestCheck[]> {
  return withProbe(detection, options, async (sandbox, commandTargets, scope) => {
    // The zygote is pid 2 of its sandbox's pid namespace (bwrap's init is 1); its memory is one more property.
    const targets = { ...commandTargets, zygotePid: 2, zygoteCommand: basename(zygoteProgram().argv.at(-1) ?? '') };
    const script = buildSelfTestScript(targets);
    const support = sandbox.zygote;
    if (support === undefined) return parseSelfTestOutput('', targets, 'this sandbox has no zygote');
    let zygote: SandboxZygote | undefined;
    try {
      zygote = await SandboxZygote.start(support.argv(scope, zygoteProgram()));
      const group = await zygote.spawn(support.command(['/bin/sh', '-c', script], scope, scope.workspaceRoot, { PATH: '/usr/bin:/bin' }));
      let stdout = '';
      group.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      group.stderr?.resume();
      const timer = setTimeout(() => group.signal('SIGKILL'), options.timeoutMs ?? 10_000);
      const exit = await group.done.finally(() => clearTimeout(timer));
      return parseSelfTestOutput(stdout, targets, exit.spawnError ?? zygote.lost);
    } catch (error) {
      return parseSelfTestOutput('', targets, `the zygote did not start: ${(error as Error).message}`);
    } finally {
      await zygote?.close();
    }
  });
}

/**
 * Whether session zygotes may be used after their self-test: every property held (a writable zygote memory only
 * when `allowMemoryWrites`, the host's explicit `sandboxZygote.allowZygoteMemoryWrites`). Otherwise one process
 * warning names what failed, and commands get a bwrap each (whose own self-test decides as before).
 */
export function zygoteUsable(checks: readonly SelfTestCheck[], allowMemoryWrites = false): boolean {
  const failed = describeFailures(checks.filter((c) => !(allowMemoryWrites && c.property === 'zygote-memory-sealed')));
  if (failed === '') return true;
  process.emitWarning(`toolwarden runs each sandboxed command in a bubblewrap of its own: the session sandbox (zygote) self-test failed: ${failed}`, { code: 'TOOLWARDEN_ZYGOTE' });
  return false;
}

/** The probe sandbox's pids.max as root: room for bwrap, a zygote's threads and the probe's own tools. */
const PROBE_PIDS_MAX = 48;
/** Background processes the probe tries to start as root: past PROBE_PIDS_MAX, so some must be refused. */
const PROBE_FORKS = 64;

type Probe = (sandbox: Sandbox, targets: SelfTestTargets, scope: SandboxScope, script: string) => Promise<SelfTestCheck[]>;

async function withProbe(detection: SandboxDetection, options: SelfTestOptions, probe: Probe): Promise<SelfTestCheck[]> {
  if (!detection.available || detection.path === undefined) throw new Error('runSandboxSelfTest needs a detected bwrap');
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolwarden-selftest-')));
  let probeCgroups: SessionCgroups | undefined;
  try {
    const workspace = join(base, 'workspace');
    const blockedDir = join(workspace, '.git', 'hooks');
    const canary = join(base, 'outside', 'canary');
    mkdirSync(blockedDir, { recursive: true });
    mkdirSync(join(base, 'outside'));
    writeFileSync(canary, 'canary\n');
    // RLIMIT_NPROC does not bind the host's root: then the probe's sandbox joins a pids cgroup of its own, with a
    // small pids.max, and must see forks refused past it (without one, the property fails, as it should).
    const asRoot = process.getuid?.() === 0;
    probeCgroups = asRoot ? createSessionCgroups({ maxTasks: PROBE_PIDS_MAX }) : undefined;
    const limits = { tmpBytes: DEFAULT_LIMITS.sandboxTmpBytes, maxProcesses: DEFAULT_LIMITS.commandMaxProcesses, memoryBytes: DEFAULT_LIMITS.commandMemoryBytes, cpuSeconds: DEFAULT_LIMITS.commandCpuSeconds };
    const networkAbsent = options.networkAbsent ?? true;
    const scope: SandboxScope = {
      ...(probeCgroups === undefined ? {} : { cgroupProcs: probeCgroups.procsFiles }),
      workspaceRoot: workspace,
      readRoots: [],
      blockedInWorkspace: [blockedDir],
      net: networkAbsent ? false : ['*'],
      limits,
    };
    const targets: SelfTestTargets = {
      canary, blockedDir, networkAbsent, ...limits, privateDirs: privateDirsOf(scope, hostSandboxSys),
      ...(asRoot ? { processCountProbe: PROBE_FORKS } : {}),
    };
    return await probe(createBubblewrapSandbox(detection.path, featuresOf(detection)), targets, scope, buildSelfTestScript(targets));
  } finally {
    rmSync(base, { recursive: true, force: true });
    await probeCgroups?.close();
  }
}

function run(file: string, args: string[], timeoutMs: number): Promise<{ stdout: string; failure: string | undefined }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, killSignal: 'SIGKILL', env: { PATH: '/usr/bin:/bin' } }, (error, stdout, stderr) => {
      resolve({ stdout, failure: error === null ? undefined : stderr.trim() || error.message });
    });
  });
}
