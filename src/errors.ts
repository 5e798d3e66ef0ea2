/**
 * Stable error codes. They are public API: a tool failure resolves with one of them in `code`, and every
 * error toolwarden throws carries one. Each is documented in docs/errors.md.
 */
export const ERROR_CODES = [
  /** The tool is not in the session's capability (or does not exist). */
  'TOOL_NOT_ALLOWED',
  /** The path resolves outside the workspace root (and outside writes are not allowed). */
  'OUTSIDE_WORKSPACE',
  /** The path is outside the workspace and every read root. */
  'NOT_READABLE',
  /** The path is on the blocklist (credentials and files that run code later: docs/paths.md) or under an excluded path. */
  'BLOCKED_PATH',
  /** A symlink chain loops or is longer than the hop limit. */
  'SYMLINK_LOOP',
  /** The arguments do not match the tool's schema, or a path is not a usable string. */
  'INVALID_ARGS',
  /** The file or directory does not exist. */
  'NOT_FOUND',
  /** The call, command or walk ran past its time limit. */
  'TIMEOUT',
  /** The session's worker died (crash, out of memory) during the call; it has been replaced. */
  'WORKER_CRASHED',
  /** The session is closed. */
  'SESSION_CLOSED',
  /** A capability token is malformed, tampered with, expired or from another runtime. */
  'TOKEN_INVALID',
  /** A child session or a user asked for more than its parent or tenant allows, or a token from another signer more than the node. */
  'ESCALATION',
  /** Options passed to the runtime or a session are invalid. */
  'INVALID_OPTIONS',
  /** An edit or patch did not match the file's content. */
  'EDIT_MISMATCH',
  /** The target exists and the operation will not overwrite it, or is the wrong kind (a directory for a file). */
  'CONFLICT',
  /** The file is binary, or too large to handle as text. */
  'UNSUPPORTED_FILE',
  /** A permission rule denied the call. */
  'POLICY_DENIED',
  /** The host's approver (or the absence of one) denied the call. */
  'APPROVAL_DENIED',
  /** The runtime's or the user's maximum number of open sessions is reached. */
  'SESSION_LIMIT',
  /** The session already has `limits.maxConcurrentCalls` calls in flight. */
  'CALL_LIMIT',
  /** The session already has `limits.maxProcesses` live background processes. */
  'PROCESS_LIMIT',
  /** The write would pass the session's `limits.writeQuotaBytes`. */
  'WRITE_QUOTA_EXCEEDED',
  /** No background process with that id in this session. */
  'PROCESS_NOT_FOUND',
  /** The dashboard named a served session that is not open (closed already, or never opened). */
  'SESSION_NOT_FOUND',
  /** The dashboard answered an approval that is no longer pending (answered elsewhere, timed out, or its call ended). */
  'APPROVAL_NOT_FOUND',
  /** The command could not be started. */
  'SPAWN_FAILED',
  /** The OS sandbox is required but unavailable, or failed to start. */
  'SANDBOX_UNAVAILABLE',
  /** The network permission does not allow the host. */
  'NET_DENIED',
  /** The session's commands already have `limits.egressMaxConnections` connections open through its egress proxy, or moved `limits.egressMaxBytes`. */
  'EGRESS_LIMIT',
  /** An MCP server failed to start, connect or answer. */
  'MCP_ERROR',
  /** A host-defined tool threw. */
  'TOOL_FAILED',
  /** An I/O error not covered by a more specific code. */
  'IO_ERROR',
  /** An unexpected internal failure: a bug in toolwarden. */
  'INTERNAL',
  /** The background process has already ended (or closed its stdin), so it cannot take input. */
  'PROCESS_EXITED',
  /** The caller cancelled the call (its `signal` aborted, or an MCP client cancelled it in `serve`); its work was stopped. */
  'ABORTED',
  /**
   * A broker request from a session's worker or tool process was refused before the broker saw it: malformed, of an
   * unknown type, or not within the admission of the in-flight call whose id it carries (an unknown, finished or
   * other session's id, another tool's operation, another path).
   */
  'BROKER_REFUSED',
  /** A sandboxed command could not start another process: it reached `limits.commandMaxProcesses`. */
  'COMMAND_PROCESS_LIMIT',
  /** A sandboxed command filled its private /tmp or HOME tmpfs to `limits.sandboxTmpBytes`. */
  'TMP_SPACE_LIMIT',
  /** A sandboxed command failed to allocate memory past `limits.commandMemoryBytes`. */
  'MEMORY_LIMIT',
  /** A sandboxed command's process used `limits.commandCpuSeconds` of CPU time and was killed. */
  'CPU_LIMIT',
  /** A sandboxed command created or changed a path on the blocklist; what it created was removed. */
  'BLOCKED_PATH_WRITTEN',
  /** The session's standing sandbox (zygote) died or broke its protocol while the command ran; the command was killed. */
  'SANDBOX_LOST',
  /** An adapter was called without its framework package installed; the message names the package and the version range. */
  'FRAMEWORK_MISSING',
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

const CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether a value is a known error code. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODE_SET.has(value);
}

/** The one error class toolwarden throws; `code` is stable, `message` names the path or argument and the rule. */
export class ToolwardenError extends Error {
  override readonly name = 'ToolwardenError';
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** Plain-data form of an error, safe to post across threads (custom classes lose `code` in structuredClone). */
export interface PlainError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

/** Turns any thrown value into plain data; unknown errors become `INTERNAL` (or `IO_ERROR` for Node fs errors). */
export function toPlainError(error: unknown): PlainError {
  if (error instanceof ToolwardenError) {
    return error.details ? { code: error.code, message: error.message, details: { ...error.details } } : { code: error.code, message: error.message };
  }
  if (isPlainError(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) {
    const errno = (error as NodeJS.ErrnoException).code;
    if (errno === 'ENOENT') return { code: 'NOT_FOUND', message: error.message };
    if (typeof errno === 'string' && errno.startsWith('E')) return { code: 'IO_ERROR', message: error.message };
    return { code: 'INTERNAL', message: error.message };
  }
  return { code: 'INTERNAL', message: String(error) };
}

/** Rebuilds a {@link ToolwardenError} from plain data received from another thread. */
export function fromPlainError(plain: PlainError): ToolwardenError {
  return new ToolwardenError(plain.code, plain.message, plain.details);
}

function isPlainError(value: unknown): value is PlainError {
  return typeof value === 'object' && value !== null && isErrorCode((value as { code?: unknown }).code) && typeof (value as { message?: unknown }).message === 'string';
}
