import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { builtinTool } from '../../src/tools/builtin-schemas.js';

/** How often a long call reports that it is still running. */
export const PROGRESS_INTERVAL_MS = 1000;

/** Whether a call can run long enough to be worth progress notifications, as its descriptor's `longRunning` says. */
export function reportsProgress(tool: string, args: Record<string, unknown>): boolean {
  const longRunning = builtinTool(tool)?.longRunning ?? false;
  if (typeof longRunning === 'boolean') return longRunning;
  const action = args['action'] ?? longRunning.defaultAction;
  return typeof action === 'string' && longRunning.actions.includes(action);
}

/**
 * Sends `notifications/progress` for the client's `progressToken` every {@link PROGRESS_INTERVAL_MS} while a long call
 * runs: `progress` is the elapsed seconds (no `total`: how long a command runs is not known), `message` says so.
 * `undefined` for a call that is not long-running.
 */
export function startProgress(
  tool: string,
  args: Record<string, unknown>,
  progressToken: ProgressToken,
  send: (notification: ServerNotification) => Promise<void>,
): { stop(): void } | undefined {
  if (!reportsProgress(tool, args)) return undefined;
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    void send({ method: 'notifications/progress', params: { progressToken, progress: seconds, message: `${tool} running for ${seconds} s` } }).catch(() => undefined);
  }, PROGRESS_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
