import { buildBwrapArgs, checkSandboxCwd, privateDirsOf, sandboxCommandEnv, withRlimits } from './bwrap-args.js';
import type { SandboxFeatures, SandboxScope, SandboxSys, ZygoteCommand, ZygoteProgram } from './types.js';

/**
 * The bubblewrap arguments of a session's zygote: exactly a command's layout for `scope` (mounts, blocked paths
 * and stubs, namespaces, no capabilities, the seccomp filter on SECCOMP_FD when `features.seccomp`, the egress
 * forwarder started once), in the workspace, running the zygote program (given the private tmpfs directories to
 * empty between commands) instead of a command and without
 * rlimits: each command gets its own (see {@link buildZygoteCommand}), so none counts the zygote's CPU time.
 */
export function buildZygoteBwrapArgs(scope: SandboxScope, program: ZygoteProgram, sys: SandboxSys, features: SandboxFeatures): string[] {
  const { prlimit: _perCommand, ...withoutRlimits } = features;
  // The zygote empties these between commands, as a bwrap per command would give them fresh.
  const argv = [...program.argv, ...privateDirsOf(scope, sys)];
  return buildBwrapArgs(scope, scope.workspaceRoot, argv, sys, withoutRlimits, program.readOnly);
}

/**
 * What the zygote spawns for one command: `argv` under prlimit with the scope's limits, in `cwd` (checked like a
 * per-command bwrap's `--chdir`), with the scope's sandbox environment over `env`.
 */
export function buildZygoteCommand(scope: SandboxScope, cwd: string, argv: readonly string[], env: Readonly<Record<string, string>>, sys: SandboxSys, features: SandboxFeatures): ZygoteCommand {
  checkSandboxCwd(scope, cwd, sys);
  const [file = '', ...args] = withRlimits(argv, scope.limits, features.prlimit);
  return { file, args, cwd, env: { ...env, ...sandboxCommandEnv(scope) } };
}
