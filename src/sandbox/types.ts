import type { NetPermission } from '../net/net-permission.js';

/**
 * How a session uses the OS sandbox: `auto` uses it when available and falls back to the static checks (with a
 * one-time warning), `required` fails closed without it, `off` never uses it.
 */
export type SandboxMode = 'auto' | 'required' | 'off';

/** The sandbox modes, for validation. */
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];

/**
 * What a sandboxed command may see. Every path is absolute and canonical (realpath); the runtime's sandbox
 * canonicalizes before building the layout.
 */
export interface SandboxScope {
  /** Bound read-write at its own path. Must not be `/`. */
  readonly workspaceRoot: string;
  /** Bound read-only at their own paths; missing ones are skipped. */
  readonly readRoots: readonly string[];
  /**
   * Absolute paths inside the workspace re-bound read-only after the workspace (`.git/hooks`, `.git/config`,
   * excluded paths, `.ssh`/`.aws` directories). Missing ones are skipped, except a missing `.git/hooks` under an
   * existing `.git`, which gets an empty read-only tmpfs so no hook can be planted.
   */
  readonly blockedInWorkspace: readonly string[];
  /**
   * Missing paths inside the workspace covered by an empty read-only tmpfs, so the command cannot create them
   * (see topLevelStubs). bwrap makes the mount point on the host; the caller removes it after the command.
   */
  readonly stubsInWorkspace?: readonly string[];
  /** The session's network permission; commands get the host network only with `['*', ...]` (see docs/network.md). */
  readonly net: NetPermission;
  /**
   * HOME inside the sandbox. @default '/tmp/home' (an empty directory in the private /tmp). When it is outside the
   * workspace and read roots, an empty private tmpfs is mounted there.
   */
  readonly home?: string;
  /** Resource bounds of each command; without them only the namespaces bound it. */
  readonly limits?: SandboxLimits;
  /** The session's egress proxy, when `net` is a host list: commands reach those hosts through it only. */
  readonly egress?: EgressScope;
  /**
   * The `cgroup.procs` files of the session's cgroups (pids, memory), which the sandbox joins before bwrap starts
   * (see src/sandbox/cgroups.ts): the bounds that also hold for the host's root and for shared memory.
   */
  readonly cgroupProcs?: readonly string[];
}

/** What a command spawned in a session's standing sandbox is checked against and given (its cwd, its environment). */
export type SandboxCommandScope = Pick<SandboxScope, 'workspaceRoot' | 'readRoots' | 'home' | 'net' | 'egress'>;

/** How a sandboxed command reaches its session's egress proxy (docs/network.md). Paths are host paths. */
export interface EgressScope {
  /** The session's proxy socket; the socket a connection arrives on is the session's identity. */
  readonly socketPath: string;
  /** Debian's socat, which forwards loopback connections inside the sandbox to the socket. */
  readonly socat: string;
  /** The credentials' names and their placeholders, set in the command's environment. */
  readonly placeholders: Readonly<Record<string, string>>;
  /** The host's CA roots plus the session CA, trusted inside when the session has credentials. */
  readonly caBundle?: string;
  /** The session CA alone. */
  readonly caCert?: string;
}

/** Per-command resource bounds the sandbox applies (see docs/sandbox.md, "Resource limits"). */
export interface SandboxLimits {
  /** Size cap of the private /tmp tmpfs, and of the HOME tmpfs when HOME has its own. */
  readonly tmpBytes: number;
  /** RLIMIT_NPROC: processes (threads included) the command may have at once. */
  readonly maxProcesses: number;
  /**
   * RLIMIT_DATA: private writable memory of each process (heap and anonymous mappings). Not RLIMIT_AS: V8 and
   * Go reserve far more address space than they use (a WebAssembly instance alone reserves about 10 GiB).
   */
  readonly memoryBytes: number;
  /** RLIMIT_CPU: CPU seconds of each process; SIGXCPU at the limit, SIGKILL a second later. */
  readonly cpuSeconds: number;
}

/**
 * What the host's bwrap can do, as found once per runtime by the detection, and the tools the layout uses.
 * Every flag off gives the layout of a bwrap without user namespaces and without a filter.
 */
export interface SandboxFeatures {
  /** Run in a new user namespace (`--unshare-user`, `--disable-userns`). */
  readonly userNamespace?: boolean;
  /** A seccomp filter is readable on {@link SECCOMP_FD} when bwrap starts (`--seccomp`). */
  readonly seccomp?: boolean;
  /** util-linux prlimit inside the sandbox, which sets the rlimits of `limits`; without it they are not set. */
  readonly prlimit?: string;
}

/** The file descriptor the seccomp filter is passed to bwrap on. */
export const SECCOMP_FD = 3;

/** Wraps a command's argv so it runs inside the OS sandbox; the `none` kind returns argv unchanged. */
export interface Sandbox {
  readonly kind: 'bubblewrap' | 'none';
  /** The argv to spawn instead of `argv`: for bubblewrap, `[bwrap, ...layout, '--', ...argv]`. */
  wrap(argv: readonly string[], scope: SandboxScope, cwd: string): string[];
  /** Set when commands may run in a per-session standing sandbox (a zygote) instead of one bwrap each. */
  readonly zygote?: SandboxZygoteSupport;
}

/** How to start a session's zygote and what to ask it to spawn; the layout is a per-command bwrap's. */
export interface SandboxZygoteSupport {
  /** The argv that starts a zygote confined to `scope` (the workspace as cwd, no rlimits of its own). */
  argv(scope: SandboxScope, program: ZygoteProgram): string[];
  /** One command for the zygote: `argv` in `cwd` under the scope's rlimits and sandbox environment over `env`. */
  command(argv: readonly string[], scope: SandboxScope, cwd: string, env: Readonly<Record<string, string>>): ZygoteCommand;
}

/** The zygote program: Node, its flags and the entry file, and the host files it needs visible read-only. */
export interface ZygoteProgram {
  readonly argv: readonly string[];
  readonly readOnly: readonly string[];
}

/** A command as the zygote spawns it inside the standing sandbox. */
export interface ZygoteCommand {
  readonly file: string;
  readonly args: string[];
  /** The canonical working directory, inside the workspace or a read root. */
  readonly cwd: string;
  /** The command's environment with what bwrap would have set for it (HOME, TMPDIR, egress variables). */
  readonly env: Record<string, string>;
}

/** The filesystem facts the layout needs, injected so the layout stays pure. */
export interface SandboxSys {
  /** Whether the path exists (following symlinks). */
  existing(path: string): boolean;
  /** The symlink's target when the path itself is a symlink, otherwise undefined. */
  readLink(path: string): string | undefined;
}
