import { ToolwardenError, type ErrorCode } from '../errors.js';
import type { ShellAnalysis, ShellCheck, ShellPathResolver } from './types.js';

/**
 * Turns an analysis into a verdict: a refused path denies (its code and path decide); otherwise a dangerous
 * removal asks (and is flagged so "always allow" is never offered); otherwise unresolved words, unknown
 * commands or a parse error ask, except that unknown commands are allowed when an OS sandbox is active.
 *
 * @example
 * const check = checkShellCommand(analysis, resolver, { sandboxed: false });
 * if (check.verdict === 'deny') return errorResult(check.code ?? 'POLICY_DENIED', check.reasons[0] ?? '');
 */
export function checkShellCommand(analysis: ShellAnalysis, resolver: ShellPathResolver, opts: { sandboxed: boolean }): ShellCheck {
  const commands = analysis.commands.map((c) => c.text);
  const dangerous = analysis.dangerousRemovals.length > 0;
  for (const access of analysis.accesses) {
    try {
      if (access.mode === 'read') resolver.read(access.path, access.cwd);
      else resolver.write(access.path, access.cwd);
    } catch (error) {
      const code: ErrorCode = error instanceof ToolwardenError ? error.code : 'INTERNAL';
      const message = error instanceof Error ? error.message : String(error);
      const reason = `${access.command}: ${access.mode} of ${access.path} refused: ${message}`;
      return { verdict: 'deny', reasons: [reason], code, decidingPath: access.path, dangerous, commands };
    }
  }
  const reasons = [
    ...analysis.dangerousRemovals.map((d) => `${d.command}: dangerous removal of ${d.target}: ${d.reason}`),
    ...analysis.unresolved.map((u) => `${u.command}: ${u.word}: ${u.reason}`),
    ...(opts.sandboxed ? [] : analysis.unknownCommands.map((name) => `${name}: not a command the checker understands`)),
    ...(analysis.parseError === undefined ? [] : [`the command does not parse cleanly: ${analysis.parseError}`]),
  ];
  return { verdict: reasons.length > 0 ? 'ask' : 'allow', reasons, dangerous, commands };
}
