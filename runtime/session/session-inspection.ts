import type { ProcessSnapshot } from '../processes/index.js';
import type { SessionServices } from './session-services.js';

/**
 * An operator's view of one open session (for dashboards): its background processes and its write quota. What it
 * does bypasses the session's rules and audit, so only the host's operator surfaces (the admin dashboard) use it.
 */
export interface SessionInspection {
  /** Snapshots of the session's background processes, oldest first. */
  processes(): ProcessSnapshot[];
  /** The last `chars` characters a background process wrote. @throws ToolwardenError PROCESS_NOT_FOUND */
  processTail(processId: string, chars: number): string;
  /** Stops a background process (SIGTERM, then SIGKILL after the grace); resolves once it ended. @throws ToolwardenError PROCESS_NOT_FOUND */
  stopProcess(processId: string): Promise<ProcessSnapshot>;
  /** Bytes written through the file tools, against `limits.writeQuotaBytes` (0: unlimited). */
  writeBytesUsed(): number;
}

/** @internal the inspection of a session's services, for {@link Runtime.inspectSession} */
export function inspectionOf(services: SessionServices): SessionInspection {
  return {
    processes: () => services.bash.listProcesses(),
    processTail: (processId, chars) => services.bash.processTail(processId, chars),
    stopProcess: (processId) => services.bash.stopProcess(processId),
    writeBytesUsed: () => services.quota.used,
  };
}
