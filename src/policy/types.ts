/** A rule's answer for a call: run it, ask the host's approver, or refuse it. */
export type Decision = 'allow' | 'ask' | 'deny';

/** The three decisions, from the most to the least permissive. */
export const DECISIONS = ['allow', 'ask', 'deny'] as const satisfies readonly Decision[];

/**
 * The rule for one tool: a shorthand that applies to every call of the tool, or pattern lists.
 * Among the patterns that match, deny beats ask beats allow whatever their order; `default` applies when none match.
 */
export type ToolRule = Decision | { allow?: string[]; ask?: string[]; deny?: string[]; default?: Decision };

/**
 * Rules keyed by tool name (`read_file`, `bash`, `mcp__github__create_issue`) or `'*'` for every tool.
 * Patterns of a tool's entry match workspace-relative paths (file tools, picomatch globs), each simple command
 * (bash, `*` matches any characters) or the tool name (other tools). Patterns of the `'*'` entry match tool names.
 */
export type PermissionSpec = Record<string, ToolRule>;

/** How a tool's patterns are matched: against its paths, its simple commands, or its name. */
export type SubjectKind = 'file' | 'bash' | 'mcp' | 'other';

/** What the rules look at for one call. */
export interface PolicySubject {
  /** The tool's full name (`mcp__id__tool` for MCP tools). */
  tool: string;
  /** Which patterns apply: paths for `file`, commands for `bash`, the tool name otherwise. */
  kind: SubjectKind;
  /** Workspace-relative, canonical paths the call touches (file tools); every one must pass. */
  paths?: string[];
  /** The text of each simple command, wrappers already unwrapped (bash); every one must pass. */
  commands?: string[];
  /** The static check's verdict (shell checker or path guard): the built-in default, and a floor when `'deny'`. */
  staticVerdict?: Decision;
  /** Dangerous removal: at least `ask` whatever the rules say, and never remembered. */
  dangerous?: boolean;
  /**
   * The static check's verdict on each simple command, keyed by its text in `commands` (bash): the built-in
   * default for that command, so a rule matching it replaces its `ask`; a `'deny'` is a floor for the whole call.
   * Commands missing here fall back to `staticVerdict`.
   */
  commandVerdicts?: Readonly<Record<string, CommandVerdict>>;
  /**
   * What the static check found that belongs to no listed command (a parse failure, a redirect on a group, an
   * assignment prefix): no rule sees it, so the call asks at least, and an answer is never remembered.
   */
  unchecked?: readonly string[];
}

/** The static check's verdict on one simple command. */
export interface CommandVerdict {
  verdict: Decision;
  /** Why it is not `allow`. */
  reasons?: readonly string[];
  /** The command is a dangerous removal (the call's `dangerous` flag decides; this names the command). */
  dangerous?: boolean;
}

/** Which gate decided: a rule layer, the built-in default, the static check, dangerous removal, or a remembered answer. */
export type VerdictGate = 'host' | 'session' | 'default' | 'static' | 'dangerous' | 'remembered';

/** A decision and the rule that produced it. */
export interface RuleVerdict {
  decision: Decision;
  /** Human-readable, e.g. `session rule bash.deny 'git push*'` or `default for bash: static check 'ask'`. */
  rule: string;
  gate: VerdictGate;
  /** The path or command that decided, when the rule matched one item of several. */
  item?: string;
}

/** An answer the host's approver may give to an `ask`. */
export type ApprovalOption = 'allow' | 'deny' | 'allow-always';

const RANK: Readonly<Record<Decision, number>> = { allow: 0, ask: 1, deny: 2 };

/** Whether `a` is stricter than `b` (deny > ask > allow). */
export function isStricter(a: Decision, b: Decision): boolean {
  return RANK[a] > RANK[b];
}

/** The strictest of several verdicts; on a tie the first one wins, so callers order them by preference. */
export function pickStrictest<T extends { decision: Decision }>(verdicts: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const verdict of verdicts) {
    if (best === undefined || isStricter(verdict.decision, best.decision)) best = verdict;
  }
  return best;
}

/** Whether a value is one of the three decisions. */
export function isDecision(value: unknown): value is Decision {
  return value === 'allow' || value === 'ask' || value === 'deny';
}
