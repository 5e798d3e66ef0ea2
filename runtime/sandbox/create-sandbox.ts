import { ToolwardenError } from '../../src/errors.js';
import { describeFailures, type SelfTestCheck } from '../../src/sandbox/self-test.js';
import { buildBwrapArgs } from '../../src/sandbox/bwrap-args.js';
import { buildZygoteBwrapArgs, buildZygoteCommand } from '../../src/sandbox/zygote-args.js';
import { joinCgroupsArgv } from '../../src/sandbox/cgroups.js';
import { SANDBOX_MODES, type Sandbox, type SandboxFeatures, type SandboxMode, type SandboxScope, type SandboxZygoteSupport } from '../../src/sandbox/types.js';
import type { SandboxDetection } from './detect-sandbox.js';
import { canonicalize, canonicalizeRoots, canonicalizeScope, hostSandboxSys } from './host-sys.js';
import { seccompFilterPath, withSeccompFd } from './seccomp-file.js';

/** The sandbox a session uses, and the warning to show once when `auto` fell back to the static checks. */
export interface SandboxChoice {
  readonly sandbox: Sandbox;
  /** Set only when `auto` found no usable bwrap: put it in the session's first bash result and the audit log. */
  readonly warning: string | undefined;
}

/** Runs commands as they are: the static checks are the only boundary. */
export const NO_SANDBOX: Sandbox = Object.freeze({ kind: 'none', wrap: (argv: readonly string[]) => [...argv] });

const INSTALL_HINT = 'install it with: apt-get install bubblewrap (Debian/Ubuntu) or dnf install bubblewrap (Fedora), and make sure user namespaces are enabled';

/**
 * Chooses the sandbox for a mode given the runtime's detection and self-test. `required` without a working bwrap,
 * or with a self-test property failed, throws SANDBOX_UNAVAILABLE naming what is missing; `auto` without bwrap
 * returns {@link NO_SANDBOX} and a warning, and with a failed property the sandbox plus a warning naming it;
 * `off` returns NO_SANDBOX.
 *
 * @example const { sandbox, warning } = createSandbox('auto', detection, await runSandboxSelfTest(detection));
 */
export function createSandbox(mode: SandboxMode, detection: SandboxDetection, checks: readonly SelfTestCheck[] = []): SandboxChoice {
  if (!SANDBOX_MODES.includes(mode)) throw new ToolwardenError('INVALID_OPTIONS', `sandbox must be one of ${SANDBOX_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  if (mode === 'off') return { sandbox: NO_SANDBOX, warning: undefined };
  if (detection.available && detection.path !== undefined) {
    const sandbox = createBubblewrapSandbox(detection.path, featuresOf(detection));
    const failed = describeFailures(checks);
    if (failed === '') return { sandbox, warning: undefined };
    if (mode === 'required') throw new ToolwardenError('SANDBOX_UNAVAILABLE', `sandbox 'required' but the OS sandbox self-test failed: ${failed}`);
    return { sandbox, warning: `OS sandbox self-test failed: ${failed}; commands still run inside bubblewrap, without those properties` };
  }
  const reason = detection.reason ?? 'bwrap is not available';
  if (mode === 'required') {
    throw new ToolwardenError('SANDBOX_UNAVAILABLE', `sandbox 'required' but the OS sandbox is unavailable (${reason}); ${INSTALL_HINT}`);
  }
  return {
    sandbox: NO_SANDBOX,
    warning: `OS sandbox unavailable (${reason}): shell commands run with the static command checks only, so interpreters such as node -e or python3 -c are not confined; ${INSTALL_HINT}`,
  };
}

/** What the layout may use on this host, given the runtime's detection. */
export function featuresOf(detection: SandboxDetection): SandboxFeatures {
  return {
    userNamespace: detection.userNamespace === true,
    seccomp: seccompFilterPath() !== undefined,
    ...(detection.prlimit === undefined ? {} : { prlimit: detection.prlimit }),
  };
}

/**
 * A bubblewrap sandbox using the bwrap at `bwrapPath`; wrap() canonicalizes the scope and cwd first, and with
 * `features.seccomp` starts bwrap through a shell that hands it the filter.
 */
export function createBubblewrapSandbox(bwrapPath: string, features: SandboxFeatures = {}): Sandbox {
  const filter = features.seccomp === true ? seccompFilterPath() : undefined;
  const used: SandboxFeatures = { ...features, seccomp: filter !== undefined };
  // The filter's fd is opened first, then the cgroups joined, then bwrap exec'd: all before bwrap's first fork.
  const launch = (scope: SandboxScope, bwrap: string[]): string[] => {
    const joined = scope.cgroupProcs === undefined || scope.cgroupProcs.length === 0 ? bwrap : joinCgroupsArgv(scope.cgroupProcs, bwrap);
    return filter === undefined ? joined : withSeccompFd(filter, joined);
  };
  return Object.freeze({
    kind: 'bubblewrap',
    wrap: (argv, scope, cwd) => launch(scope, [bwrapPath, ...buildBwrapArgs(canonicalizeScope(scope), canonicalize(cwd), argv, hostSandboxSys, used)]),
    zygote: Object.freeze<SandboxZygoteSupport>({
      argv: (scope, program) => launch(scope, [bwrapPath, ...buildZygoteBwrapArgs(canonicalizeScope(scope), program, hostSandboxSys, used)]),
      command: (argv, scope, cwd, env) => buildZygoteCommand(canonicalizeRoots(scope), canonicalize(cwd), argv, env, hostSandboxSys),
    }),
  } satisfies Sandbox);
}

/** The same sandbox with every command in a bwrap of its own (no zygote): `sandboxZygote: false`, or a failed self-test. */
export function withoutZygote(sandbox: Sandbox): Sandbox {
  return sandbox.zygote === undefined ? sandbox : Object.freeze({ kind: sandbox.kind, wrap: sandbox.wrap });
}
