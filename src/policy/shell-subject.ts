import type { ShellCheck } from '../shell/index.js';
import type { CommandVerdict, PolicySubject } from './types.js';

/**
 * The policy subject of a bash call from the shell checker's result: its simple commands, each command's static
 * verdict as that command's default, the call's verdict (a floor when `'deny'`), dangerous removal, and what no rule
 * may lift: what the check found outside every command, and words it cannot resolve to a path inside the boundary.
 * @example decide(layers, describeShellCheck(check), memory)
 */
export function describeShellCheck(check: ShellCheck): PolicySubject {
  const commandVerdicts = Object.fromEntries(
    check.perCommand.map((c): [string, CommandVerdict] => [c.text, { verdict: c.verdict, reasons: c.reasons, ...(c.dangerous ? { dangerous: true } : {}) }]),
  );
  // An ask from a word that cannot be resolved to a path inside the boundary is no rule's to lift.
  const unchecked = [...check.callReasons, ...check.boundaryReasons];
  return {
    tool: 'bash',
    kind: 'bash',
    commands: check.commands,
    staticVerdict: check.verdict,
    dangerous: check.dangerous,
    commandVerdicts,
    ...(unchecked.length > 0 ? { unchecked } : {}),
  };
}

/** The static verdict of one command of a subject, if the subject carries per-command verdicts. */
export function commandVerdictOf(subject: PolicySubject, command: string): CommandVerdict | undefined {
  const verdicts = subject.commandVerdicts;
  return verdicts !== undefined && Object.hasOwn(verdicts, command) ? verdicts[command] : undefined;
}

/** `static check 'ask'`, followed by the reasons when there are any. */
export function describeStaticVerdict(verdict: CommandVerdict): string {
  const reasons = verdict.reasons ?? [];
  return `static check '${verdict.verdict}'${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`;
}
