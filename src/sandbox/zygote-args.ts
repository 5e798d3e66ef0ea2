import { buildBwrapArgs, checkSandboxCwd, privateDirsOf, sandboxCommandEnv } from './bwrap-args.js';
import type { SandboxCommandScope, SandboxFeatures, SandboxScope, SandboxSys, ZygoteCommand, ZygoteProgram } from './types.js';

/**
 * The bubblewrap arguments of a session's zygote: exactly a command's layout for `scope` (mounts, blocked paths
 * and stubs, namespaces, no capabilities, the seccomp filter on SECCOMP_FD when `features.seccomp`, the egress
 * forwarder started once, and the per-command rlimits), in the workspace, running the zygote program (given the
 * private tmpfs directories to empty between commands) instead of a command.
 *
 * The rlimits are the zygote's own, hard and soft, so every command inherits them at fork and none can raise them,
 * without a prlimit exec per command. RLIMIT_CPU counts each process's own CPU time from zero, so a command still
 * gets the whole budget; the zygote's budget is its own too, and its session retires it well before it runs out
 * (runtime/sandbox/session-zygote.ts).
 */
export function buildZygoteBwrapArgs(scope: SandboxScope, program: ZygoteProgram, sys: SandboxSys, features: SandboxFeatures): string[] {
  // The zygote empties these between commands, as a bwrap per command would give them fresh.
  const argv = [...program.argv, ...privateDirsOf(scope, sys)];
  return buildBwrapArgs(scope, scope.workspaceRoot, argv, sys, features, program.readOnly);
}

/**
 * What the zygote spawns for one command: `argv` as given (the rlimits are inherited from the zygote), in `cwd`
 * (checked like a per-command bwrap's `--chdir`), with the scope's sandbox environment over `env`.
 */
export function buildZygoteCommand(scope: SandboxCommandScope, cwd: string, argv: readonly string[], env: Readonly<Record<string, string>>, sys: SandboxSys): ZygoteCommand {
  checkSandboxCwd(scope, cwd, sys);
  const [file = '', ...args] = argv;
  return { file, args, cwd, env: { ...env, ...sandboxCommandEnv(scope) } };
}
