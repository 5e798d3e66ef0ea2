import { launcherEntryPath, ProcessLauncher } from './process-launcher.js';

let current: Promise<ProcessLauncher | undefined> | undefined;
let warned = false;

/**
 * This host's one process launcher, started on first use and kept; undefined (after one warning) when it cannot
 * start, so callers spawn directly instead. A launcher that dies is replaced on the next call. POSIX only.
 */
export function acquireLauncher(): Promise<ProcessLauncher | undefined> {
  current ??= ProcessLauncher.start(launcherEntryPath(), () => {
    current = undefined;
  }).catch((error: unknown) => {
    if (!warned) {
      warned = true;
      process.emitWarning(`toolwarden could not start its process launcher, so shell commands are spawned from the host process itself (slower with a large heap): ${(error as Error).message}`, { code: 'TOOLWARDEN_LAUNCHER' });
    }
    return undefined;
  });
  return current;
}

/**
 * Starts the process launcher now, while the host is still small and forking it is cheap, instead of at the first
 * shell command. Does nothing on Windows, where commands are always spawned directly.
 * @example const runtime = await createRuntime(); warmProcessLauncher();
 */
export function warmProcessLauncher(): void {
  if (process.platform !== 'win32') void acquireLauncher();
}
