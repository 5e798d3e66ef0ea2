import type { ErrorCode } from '../errors.js';
import { restateRefusal } from '../path-guard/refusal.js';
import type { CommandCheck, ShellAnalysis, ShellCheck, ShellPathResolver } from './types.js';

type Verdict = CommandCheck['verdict'];

/**
 * Turns an analysis into verdicts, per simple command and for the whole call: a refused path denies (its code
 * and path decide); otherwise a dangerous removal asks (and is flagged so "always allow" is never offered);
 * otherwise unresolved words, unknown commands or options, or a parse error ask, except that unknown commands and
 * options are allowed when an OS sandbox is active. Words that cannot be resolved to a path inside the boundary
 * also land in `boundaryReasons`, which no permission rule lifts. Each finding lands on the command it belongs to; what belongs to none (a parse
 * failure, a redirect on a group) lands in `callReasons` and holds for the whole call.
 *
 * @example
 * const check = checkShellCommand(analysis, resolver, { sandboxed: false });
 * if (check.verdict === 'deny') return errorResult(check.code ?? 'POLICY_DENIED', check.reasons[0] ?? '');
 */
export function checkShellCommand(analysis: ShellAnalysis, resolver: ShellPathResolver, opts: { sandboxed: boolean }): ShellCheck {
  const commands = analysis.commands.map((c) => c.text);
  const perCommand = new Map<string, CommandCheck>(commands.map((text) => [text, { text, verdict: 'allow', reasons: [], dangerous: false, boundary: false }]));
  const boundaryReasons: string[] = [];
  const callReasons: string[] = [];
  const note = (command: string, verdict: Verdict, reason: string): void => {
    const entry = perCommand.get(command);
    if (entry === undefined) {
      callReasons.push(`${command}: ${reason}`);
      return;
    }
    entry.reasons.push(reason);
    if (verdict === 'deny' || entry.verdict === 'allow') entry.verdict = verdict;
  };

  const refusals: { reason: string; code: ErrorCode; path: string }[] = [];
  for (const access of analysis.accesses) {
    try {
      const target = access.resolved ?? access.path;
      if (access.mode === 'read') resolver.read(target, access.cwd);
      else resolver.write(target, access.cwd, access.kind);
    } catch (error) {
      // The resolver saw the path the check resolved; the refusal names the word as the command wrote it.
      const refusal = restateRefusal(error, access.path, access.throughLink === true);
      const reason = `${access.mode} of ${access.path} refused: ${refusal.message}`;
      if (refusals.some((r) => r.reason === `${access.command}: ${reason}`)) continue;
      refusals.push({ reason: `${access.command}: ${reason}`, code: refusal.code, path: access.path });
      note(access.command, 'deny', reason);
    }
  }
  const reasons: string[] = [];
  const ask = (command: string, reason: string): void => {
    reasons.push(`${command}: ${reason}`);
    note(command, 'ask', reason);
  };
  for (const d of analysis.dangerousRemovals) {
    ask(d.command, `dangerous removal of ${d.target}: ${d.reason}`);
    const entry = perCommand.get(d.command);
    if (entry !== undefined) entry.dangerous = true;
  }
  for (const u of analysis.unresolved) {
    if (u.kind === 'unknown' && opts.sandboxed) continue;
    const reason = `${u.word}: ${u.reason}`;
    ask(u.command, reason);
    if (u.kind !== 'path') continue;
    boundaryReasons.push(`${u.command}: ${reason}`);
    const entry = perCommand.get(u.command);
    if (entry !== undefined) entry.boundary = true;
  }
  if (!opts.sandboxed) for (const name of analysis.unknownCommands) askUnknown(analysis, name, ask);
  if (analysis.parseError !== undefined) {
    const reason = `the command does not parse cleanly: ${analysis.parseError}`;
    reasons.push(reason);
    callReasons.push(reason);
  }

  const dangerous = analysis.dangerousRemovals.length > 0;
  const base = { dangerous, commands, perCommand: [...perCommand.values()], callReasons, boundaryReasons };
  const first = refusals[0];
  if (first !== undefined) {
    return { ...base, verdict: 'deny', reasons: refusals.map((r) => r.reason), code: first.code, decidingPath: first.path };
  }
  return { ...base, verdict: reasons.length > 0 ? 'ask' : 'allow', reasons };
}

// The recorder knows unknown commands by name only: every command of that name asks (several `git` commands
// ask together when one subcommand is unknown), and a name no listed command carries holds for the whole call.
function askUnknown(analysis: ShellAnalysis, name: string, ask: (command: string, reason: string) => void): void {
  const owners = new Set(analysis.commands.filter((c) => c.name === name).map((c) => c.text));
  for (const text of owners.size > 0 ? owners : [name]) ask(text, 'not a command the checker understands');
}
