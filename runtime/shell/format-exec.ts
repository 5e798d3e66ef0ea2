import type { ExecOutcome } from '../processes/index.js';
import { errorResult, okResult, type ToolResult } from '../../src/tool-result.js';

/**
 * Turns an exec outcome into a result: stdout, stderr and the exit status as text and as structured fields. `limit`
 * names what ended a timed-out command: its own timeout (`700 ms`) or its call's deadline.
 */
export function formatExecResult(command: string, outcome: ExecOutcome, limit: string, notes: readonly string[]): ToolResult {
  const parts: string[] = [...notes];
  if (outcome.stdout) parts.push(outcome.stdout.replace(/\n$/, ''));
  if (outcome.stdoutDropped > 0) parts.push(`[stdout truncated: ${outcome.stdoutDropped} more characters dropped]`);
  if (outcome.stderr) parts.push(`[stderr]\n${outcome.stderr.replace(/\n$/, '')}`);
  if (outcome.stderrDropped > 0) parts.push(`[stderr truncated: ${outcome.stderrDropped} more characters dropped]`);
  const status = outcome.signal ? `killed by ${outcome.signal}` : `exit code ${outcome.exitCode}`;
  parts.push(`[${status}, ${Math.round(outcome.durationMs)} ms]`);
  const structured: Record<string, unknown> = {
    command,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    durationMs: Math.round(outcome.durationMs),
    stdoutDropped: outcome.stdoutDropped,
    stderrDropped: outcome.stderrDropped,
  };
  if (outcome.timedOut) {
    return errorResult('TIMEOUT', `command ran past ${limit} and its process group was killed: ${command}\n${parts.join('\n')}`, structured);
  }
  return okResult(parts.join('\n'), structured);
}
