import { ToolwardenError } from '../errors.js';
import { buildConfinementArgs } from '../sandbox/confinement.js';

/**
 * Refuses to start an isolated tool process (isolation 'process') that would share the host's pid namespace: Node's
 * permission model does not cover `process.kill`, so its tool code could signal, even SIGKILL, any process of the
 * runtime's user. The process gets a namespace of its own only inside bubblewrap with `--unshare-pid` (read from the
 * confinement flags every toolwarden bwrap run gets). `allowShared` is the host's explicit opt-in (`allowSharedPidNamespace`).
 * @throws ToolwardenError INVALID_OPTIONS naming why, and the option that would allow it.
 */
export function checkPidNamespace(inBubblewrap: boolean, sandboxMode: string, allowShared: boolean): void {
  if (allowShared || (inBubblewrap && buildConfinementArgs({}, false).includes('--unshare-pid'))) return;
  const why = inBubblewrap
    ? 'its bubblewrap arguments give it no pid namespace'
    : sandboxMode === 'off'
      ? "the sandbox is 'off', so it would run without a pid namespace of its own"
      : 'no OS sandbox (bubblewrap) is available, so it would run without a pid namespace of its own';
  throw new ToolwardenError(
    'INVALID_OPTIONS',
    `isolation 'process' refused: ${why}, and its tool code could signal (even SIGKILL) any host process of this user; ` +
      'enable the sandbox, or opt in with createRuntime({ allowSharedPidNamespace: true })',
  );
}
