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
  /** The session's network permission; commands get the host network only with `['*', ...]` (see README). */
  readonly net: NetPermission;
  /**
   * HOME inside the sandbox. @default '/tmp/home' (an empty directory in the private /tmp). When it is outside the
   * workspace and read roots, an empty private tmpfs is mounted there.
   */
  readonly home?: string;
}

/** Wraps a command's argv so it runs inside the OS sandbox; the `none` kind returns argv unchanged. */
export interface Sandbox {
  readonly kind: 'bubblewrap' | 'none';
  /** The argv to spawn instead of `argv`: for bubblewrap, `[bwrap, ...layout, '--', ...argv]`. */
  wrap(argv: readonly string[], scope: SandboxScope, cwd: string): string[];
}

/** The filesystem facts the layout needs, injected so the layout stays pure. */
export interface SandboxSys {
  /** Whether the path exists (following symlinks). */
  existing(path: string): boolean;
  /** The symlink's target when the path itself is a symlink, otherwise undefined. */
  readLink(path: string): string | undefined;
}
