import { posix } from 'node:path';
import { ToolwardenError } from '../errors.js';
import { allowsAllHosts } from '../net/net-permission.js';
import { buildConfinementArgs, buildKernelViewMounts, isWithin, sortParentsFirst, tmpfsSize } from './confinement.js';
import { egressArgs, egressEnv } from './egress-args.js';
import { buildSystemMounts, type MountOp } from './system-mounts.js';
import type { SandboxFeatures, SandboxLimits, SandboxScope, SandboxSys } from './types.js';

/** HOME inside the sandbox when the scope names none: an empty directory in the private /tmp. */
export const DEFAULT_SANDBOX_HOME = '/tmp/home';

/**
 * The bubblewrap arguments (without the `bwrap` program itself) that run `argv` in `cwd` inside the scope:
 * the kernel view and confinement shared with tool processes (buildKernelViewMounts, buildConfinementArgs); read roots and
 * system dirs read-only (/etc secrets masked); the workspace read-write; blocked paths inside it read-only;
 * everything else absent; the root read-only; all capabilities dropped; new pid, ipc, uts, (when `features`
 * allow) user, and (unless every host is allowed) network namespaces; the seccomp filter and rlimits when
 * `features` provide them; with `scope.egress` (a host list) the session's proxy socket and forwarder
 * ({@link egressArgs}).
 *
 * @example buildBwrapArgs(scope, '/ws', ['sh', '-c', 'ls'], sys) // ['--tmpfs', '/tmp', ..., '--', 'sh', '-c', 'ls']
 */
export function buildBwrapArgs(scope: SandboxScope, cwd: string, argv: readonly string[], sys: SandboxSys, features: SandboxFeatures = {}, extraReadOnly: readonly string[] = []): string[] {
  validateScope(scope);
  if (argv.length === 0) throw new ToolwardenError('INVALID_ARGS', 'sandbox: the command argv is empty; give at least the program');
  const home = scope.home ?? DEFAULT_SANDBOX_HOME;
  const mounted = checkSandboxCwd(scope, cwd, sys);
  const tmpBytes = scope.limits?.tmpBytes;
  const egress = scope.egress === undefined || allowsAllHosts(scope.net) ? undefined : egressArgs(scope.egress);
  const ops: MountOp[] = [
    ...buildKernelViewMounts(sys, tmpBytes),
    ...buildReadRootMounts(scope, sys),
    ...buildSystemMounts(sys),
    ...buildResolverMounts(scope, sys),
    { dest: scope.workspaceRoot, args: ['--bind', scope.workspaceRoot, scope.workspaceRoot] },
    ...buildBlockedMounts(scope, sys),
    ...(egress?.mounts ?? []),
    // Files the program itself needs (a zygote's Node build); what a root already shows keeps its mode there.
    ...extraReadOnly.filter((p) => !mounted.some((root) => isWithin(p, root))).map((p) => ({ dest: p, args: ['--ro-bind', p, p] })),
  ];
  if (privateDirsOf(scope, sys).includes(home)) ops.push({ dest: home, args: [...tmpfsSize(tmpBytes), '--tmpfs', home] });
  return [
    ...sortParentsFirst(ops).flatMap((op) => op.args),
    ...buildConfinementArgs(features, allowsAllHosts(scope.net)),
    '--setenv', 'HOME', home,
    '--setenv', 'TMPDIR', '/tmp',
    ...(egress?.env ?? []),
    '--chdir', cwd,
    '--', ...withRlimits(egress === undefined ? argv : egress.wrap(argv), scope.limits, features.prlimit),
  ];
}

/**
 * The environment bwrap sets for every command of the scope on top of the command's own (HOME, TMPDIR, the egress
 * proxy's variables): what a command spawned inside a standing sandbox (a zygote) must be given explicitly.
 */
export function sandboxCommandEnv(scope: Pick<SandboxScope, 'home' | 'net' | 'egress'>): Record<string, string> {
  const egress = scope.egress === undefined || allowsAllHosts(scope.net) ? {} : egressEnv(scope.egress);
  return { HOME: scope.home ?? DEFAULT_SANDBOX_HOME, TMPDIR: '/tmp', ...egress };
}

/**
 * `argv` under prlimit with the scope's per-command rlimits (RLIMIT_NPROC, RLIMIT_DATA, RLIMIT_CPU), as every
 * sandboxed command runs; unchanged without limits or without prlimit. RLIMIT_MSGQUEUE is 0: a POSIX message queue
 * outlives the command that made it, and a zygote's commands share one IPC namespace, so a queue would carry memory
 * and data from one command to the next (System V objects are swept instead; these cannot be listed without mounting
 * mqueue).
 */
export function withRlimits(argv: readonly string[], limits: SandboxLimits | undefined, prlimit: string | undefined): string[] {
  if (limits === undefined || prlimit === undefined) return [...argv];
  // The CPU hard limit a second after the soft one: SIGXCPU first, so the result can say why the command died.
  return [
    prlimit,
    `--nproc=${limits.maxProcesses}`,
    `--data=${limits.memoryBytes}`,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    '--msgqueue=0',
    '--', ...argv,
  ];
}

/** The sandbox's private tmpfs directories: /tmp, /dev/shm, and HOME unless it lies in the workspace or a read root. */
export function privateDirsOf(scope: SandboxScope, sys: SandboxSys): string[] {
  const home = scope.home ?? DEFAULT_SANDBOX_HOME;
  const mounted = [scope.workspaceRoot, ...scope.readRoots.filter((root) => sys.existing(root))];
  return mounted.some((root) => isWithin(home, root)) ? ['/tmp', '/dev/shm'] : ['/tmp', '/dev/shm', home];
}

/**
 * Throws INVALID_ARGS unless `cwd` is absolute, canonical and inside the workspace or an existing read root (the
 * only places a sandboxed command can stand); returns those roots.
 */
export function checkSandboxCwd(scope: Pick<SandboxScope, 'workspaceRoot' | 'readRoots'>, cwd: string, sys: SandboxSys): string[] {
  const mounted = [scope.workspaceRoot, ...scope.readRoots.filter((root) => sys.existing(root))];
  if (!isAbsoluteCanonical(cwd) || !mounted.some((root) => isWithin(cwd, root))) {
    throw new ToolwardenError('INVALID_ARGS', `sandbox: cwd "${cwd}" must be an absolute canonical path inside the workspace or a read root`);
  }
  return mounted;
}

function buildReadRootMounts(scope: SandboxScope, sys: SandboxSys): MountOp[] {
  // A read root inside the workspace is already visible read-write; binding it read-only would contradict the write rules.
  return scope.readRoots
    .filter((root) => !isWithin(root, scope.workspaceRoot) && sys.existing(root))
    .map((root) => ({ dest: root, args: ['--ro-bind', root, root] }));
}

function buildBlockedMounts(scope: SandboxScope, sys: SandboxSys): MountOp[] {
  const ops: MountOp[] = [];
  for (const blocked of scope.blockedInWorkspace) {
    if (sys.existing(blocked)) ops.push({ dest: blocked, args: ['--ro-bind', blocked, blocked] });
    else if (isGitHooks(blocked) && sys.existing(posix.dirname(blocked))) {
      // Without this a command could create .git/hooks and plant a hook the host's next git command runs.
      ops.push({ dest: blocked, args: ['--tmpfs', blocked, '--remount-ro', blocked] });
    }
  }
  for (const stub of scope.stubsInWorkspace ?? []) {
    if (!sys.existing(stub)) ops.push({ dest: stub, args: ['--tmpfs', stub, '--remount-ro', stub] });
  }
  return ops;
}

function buildResolverMounts(scope: SandboxScope, sys: SandboxSys): MountOp[] {
  if (!allowsAllHosts(scope.net)) return [];
  // With systemd-resolved, /etc/resolv.conf points into /run, which the layout does not otherwise contain.
  const target = sys.readLink('/etc/resolv.conf');
  if (target === undefined) return [];
  const dir = posix.dirname(posix.resolve('/etc', target));
  if (isWithin(dir, '/etc') || isWithin(dir, '/usr') || !sys.existing(dir)) return [];
  return [{ dest: dir, args: ['--ro-bind', dir, dir] }];
}

function validateScope(scope: SandboxScope): void {
  for (const [name, value] of Object.entries(scope.limits ?? {})) {
    if (!Number.isSafeInteger(value) || value < 1) throw new ToolwardenError('INVALID_OPTIONS', `sandbox: limits.${name} must be a positive integer, got ${String(value)}`);
  }
  const inside = [...scope.blockedInWorkspace, ...(scope.stubsInWorkspace ?? [])];
  const paths = [scope.workspaceRoot, ...scope.readRoots, ...inside, ...(scope.home === undefined ? [] : [scope.home])];
  for (const path of paths) {
    if (!isAbsoluteCanonical(path)) throw new ToolwardenError('INVALID_OPTIONS', `sandbox: path "${path}" must be absolute and canonical (no "..", no trailing slash, no NUL)`);
  }
  if (scope.workspaceRoot === '/') throw new ToolwardenError('INVALID_OPTIONS', 'sandbox: the workspace root "/" would expose the whole host read-write');
  for (const blocked of inside) {
    if (blocked === scope.workspaceRoot || !isWithin(blocked, scope.workspaceRoot)) {
      throw new ToolwardenError('INVALID_OPTIONS', `sandbox: blocked path "${blocked}" must be strictly inside the workspace "${scope.workspaceRoot}"`);
    }
  }
}

function isGitHooks(path: string): boolean {
  return posix.basename(path) === 'hooks' && posix.basename(posix.dirname(path)) === '.git';
}

function isAbsoluteCanonical(path: string): boolean {
  return path.startsWith('/') && !path.includes('\0') && (path === '/' || posix.normalize(path) === path && !path.endsWith('/'));
}
