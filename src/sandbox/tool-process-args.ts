/**
 * bubblewrap arguments that confine an isolated tool host process (isolation 'process'), placed before the Node
 * command. Node's permission model already limits what the process reads; the sandbox adds what that model does
 * not cover on Node 20: no network (its own empty network namespace), no writes anywhere (a read-only view of the
 * host, where the tool modules may live in any directory, /tmp included), no capabilities, and death with the
 * runtime even when the runtime is SIGKILLed.
 */
export function buildToolProcessBwrapArgs(): string[] {
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts',
    '--die-with-parent', '--new-session', '--cap-drop', 'ALL',
    '--',
  ];
}
