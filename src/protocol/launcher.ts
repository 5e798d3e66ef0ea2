/**
 * The wire between the runtime and its process launcher (see launcher-main.ts): plain data over a Node IPC channel
 * with `serialization: 'advanced'`, so output and stdin bytes cross as Buffers. `id` names one spawned group.
 */

/** Runtime → launcher. */
export type LauncherRequest =
  | {
      type: 'spawn';
      id: number;
      file: string;
      args: string[];
      cwd: string;
      /** The child's whole environment; nothing of the launcher's is added. */
      env: Record<string, string>;
      stdin: 'pipe' | 'ignore';
      /** Stop signals other than SIGKILL go to the leader's descendants, not its group (a sandbox leads it). */
      stopThroughDescendants: boolean;
      /**
       * Hand the group's stdin and stdout (socket pairs) to the runtime instead of relaying them (needs `stdin: 'pipe'`):
       * a sandbox zygote's frames then skip a hop through the launcher in each direction.
       */
      handOverStdio?: boolean;
    }
  | { type: 'stdin'; id: number; seq: number; data: Uint8Array }
  | { type: 'stdin-end'; id: number }
  | { type: 'signal'; id: number; signal: NodeJS.Signals };

/** Launcher → runtime. */
export type LauncherEvent =
  /** Started; a zygote that could not make itself non-dumpable says why in `unsealed`. */
  | { type: 'ready'; unsealed?: string }
  | { type: 'spawned'; id: number; pid: number }
  /** Sent with the group's `stream` as the IPC message's handle (handOverStdio), before its `spawned`. */
  | { type: 'stdio-handle'; id: number; stream: 'stdin' | 'stdout' }
  | { type: 'spawn-error'; id: number; message: string }
  | { type: 'output'; id: number; stream: 'stdout' | 'stderr'; data: Uint8Array }
  | { type: 'stdin-ack'; id: number; seq: number; error?: string }
  /** The leader exited and the rest of its group was SIGKILLed. */
  | { type: 'exit'; id: number; exitCode: number | null; signal: string | null }
  /** The group's stdio has closed: no output of `id` follows. */
  | { type: 'closed'; id: number };

const SIGNAL_NAME = /^SIG[A-Z0-9]+$/;

/** Whether `value` is a well-formed {@link LauncherRequest}; the launcher drops anything else. */
export function isLauncherRequest(value: unknown): value is LauncherRequest {
  if (!isRecord(value) || !isId(value['id'])) return false;
  switch (value['type']) {
    case 'spawn':
      return typeof value['file'] === 'string' && isStringArray(value['args']) && typeof value['cwd'] === 'string'
        && isStringRecord(value['env']) && (value['stdin'] === 'pipe' || value['stdin'] === 'ignore')
        && typeof value['stopThroughDescendants'] === 'boolean'
        && (value['handOverStdio'] === undefined || typeof value['handOverStdio'] === 'boolean');
    case 'stdin':
      return isId(value['seq']) && value['data'] instanceof Uint8Array;
    case 'stdin-end':
      return true;
    case 'signal':
      return typeof value['signal'] === 'string' && SIGNAL_NAME.test(value['signal']);
    default:
      return false;
  }
}

/** Whether `value` is a well-formed {@link LauncherEvent}; the runtime drops anything else. */
export function isLauncherEvent(value: unknown): value is LauncherEvent {
  if (!isRecord(value)) return false;
  if (value['type'] === 'ready') return value['unsealed'] === undefined || typeof value['unsealed'] === 'string';
  if (!isId(value['id'])) return false;
  switch (value['type']) {
    case 'spawned':
      return isId(value['pid']);
    case 'stdio-handle':
      return value['stream'] === 'stdin' || value['stream'] === 'stdout';
    case 'spawn-error':
      return typeof value['message'] === 'string';
    case 'output':
      return (value['stream'] === 'stdout' || value['stream'] === 'stderr') && value['data'] instanceof Uint8Array;
    case 'stdin-ack':
      return isId(value['seq']) && (value['error'] === undefined || typeof value['error'] === 'string');
    case 'exit':
      return (value['exitCode'] === null || Number.isInteger(value['exitCode'])) && (value['signal'] === null || typeof value['signal'] === 'string');
    case 'closed':
      return true;
    default:
      return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((item) => typeof item === 'string');
}
