/** Per-session limits. Every field is optional on input; {@link DEFAULT_LIMITS} fills the rest. */
export interface Limits {
  /** Characters `read_file` returns before it truncates. @default 100000 */
  readMaxChars: number;
  /** Time a tool call may take before it ends with TIMEOUT. @default 30000 */
  toolTimeoutMs: number;
  /** Time a bash `exec` may take before its process group is killed. @default 30000 */
  commandTimeoutMs: number;
  /** Decoded characters kept per background process (ring buffer) and per exec stream. @default 200000 */
  maxProcessOutputChars: number;
  /** Grace between SIGTERM and SIGKILL when stopping a process. @default 2000 */
  processStopGraceMs: number;
  /** Live background processes per session. @default 8 */
  maxProcesses: number;
  /** Results a grep or glob returns at most. @default 1000 */
  maxResults: number;
  /** Worker heap limit in MB (`resourceLimits.maxOldGenerationSizeMb`). @default 256 */
  workerHeapMb: number;
  /** Concurrent tool calls per session. @default 16 */
  maxConcurrentCalls: number;
  /** Bytes a session may write in total (file tools); 0 means unlimited. @default 0 */
  writeQuotaBytes: number;
  /** Size cap of a sandboxed command's private /tmp (and of its HOME when HOME is a tmpfs of its own). @default 536870912 (512 MiB) */
  sandboxTmpBytes: number;
  /** Processes and threads a sandboxed command may have at once (RLIMIT_NPROC, see docs/sandbox.md). @default 512 */
  commandMaxProcesses: number;
  /** Private writable memory of each process of a sandboxed command (RLIMIT_DATA). @default 8589934592 (8 GiB) */
  commandMemoryBytes: number;
  /** CPU seconds of each process of a sandboxed command (RLIMIT_CPU). @default 600 */
  commandCpuSeconds: number;
  /** Connections a session's commands may have open at once through its egress proxy (EGRESS_LIMIT past it). @default 64 */
  egressMaxConnections: number;
  /** Bytes (both ways) a session's commands may move through its egress proxy in all; 0 means unlimited. @default 0 */
  egressMaxBytes: number;
}

/** The limits for which 0 means unlimited (the others need at least 1): a child or a token asks 0 only under 0. */
export const UNLIMITED_AT_ZERO: ReadonlySet<keyof Limits> = new Set(['writeQuotaBytes', 'egressMaxBytes']);

/** The defaults applied to every session. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  readMaxChars: 100_000,
  toolTimeoutMs: 30_000,
  commandTimeoutMs: 30_000,
  maxProcessOutputChars: 200_000,
  processStopGraceMs: 2_000,
  maxProcesses: 8,
  maxResults: 1_000,
  workerHeapMb: 256,
  maxConcurrentCalls: 16,
  writeQuotaBytes: 0,
  sandboxTmpBytes: 512 * 1024 * 1024,
  commandMaxProcesses: 512,
  commandMemoryBytes: 8 * 1024 * 1024 * 1024,
  commandCpuSeconds: 600,
  egressMaxConnections: 64,
  egressMaxBytes: 0,
});
