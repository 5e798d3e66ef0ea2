import { buildConfinementArgs, buildKernelViewMounts, isWithin, sortParentsFirst } from './confinement.js';
import { buildSystemMounts, SYSTEM_DIRS, type MountOp } from './system-mounts.js';
import type { SandboxFeatures, SandboxSys } from './types.js';

/** What an isolated tool process may see inside bubblewrap besides the system directories. */
export interface ToolProcessLayout {
  /**
   * Absolute paths it reads (its own build, the tool modules, their packages, the Node executable), bound
   * read-only at their own paths; a path that is itself a symlink is recreated as that symlink unless a bound
   * directory already holds it (its target must be among the paths too).
   */
  readonly readPaths: readonly string[];
  /** Size cap of its private /tmp. */
  readonly tmpBytes: number;
}

/**
 * bubblewrap arguments that confine an isolated tool host process (isolation 'process'), placed before the Node
 * command (they end with `--`). Node's permission model already limits what the process reads; the sandbox adds
 * what that model does not cover on Node 20, with the same kernel view and confinement as commands (see
 * buildKernelViewMounts, buildConfinementArgs): only the system directories and `readPaths`, all read-only; a
 * bounded private /tmp; /proc with its kernel knobs read-only; no /sys; no network; a user namespace where the
 * kernel allows it; no capabilities; no new privileges; the seccomp filter when `features.seccomp`; and death with
 * the runtime even when the runtime is SIGKILLed. Nothing is writable but the private /tmp, so no blocked path is.
 */
export function buildToolProcessBwrapArgs(layout: ToolProcessLayout, sys: SandboxSys, features: SandboxFeatures = {}): string[] {
  const system = buildSystemMounts(sys);
  const linked = layout.readPaths.filter((p) => sys.readLink(p) !== undefined);
  const covering = [...SYSTEM_DIRS, '/etc', ...layout.readPaths.filter((p) => !linked.includes(p))];
  const coveredByOther = (path: string): boolean => covering.some((root) => root !== path && isWithin(path, root));
  const ops: MountOp[] = [...buildKernelViewMounts(sys, layout.tmpBytes), ...system];
  for (const path of [...new Set(layout.readPaths)]) {
    if (coveredByOther(path) || !sys.existing(path)) continue;
    const target = sys.readLink(path);
    ops.push({ dest: path, args: target === undefined ? ['--ro-bind', path, path] : ['--symlink', target, path] });
  }
  return [...sortParentsFirst(ops).flatMap((op) => op.args), ...buildConfinementArgs(features, false), '--'];
}
