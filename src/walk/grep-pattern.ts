import { ToolwardenError } from '../errors.js';
import { findRequiredLiteral } from './required-literal.js';

/** A grep pattern compiled for line-by-line matching, with an optional whole-file scanner that finds candidates fast. */
export interface GrepPattern {
  /** Tests one line (without its line break). */
  readonly line: RegExp;
  /**
   * Global multiline twin of `line`, run over a whole file to jump to candidate lines. Absent when the pattern has
   * lookarounds, whose result can differ once the neighbouring lines are visible.
   */
  readonly scan: RegExp | undefined;
  /**
   * Printable ASCII text every matching line contains, so a file without it is skipped unread; absent for a
   * case-insensitive pattern or when none can be told (see findRequiredLiteral).
   */
  readonly required: string | undefined;
}

const LOOKAROUND = /\(\?<?[=!]/;

/** The longest grep pattern accepted, in UTF-16 code units. */
export const MAX_GREP_PATTERN_CHARS = 10_000;

/**
 * Compiles a grep pattern. Unicode mode is tried first (so `.` takes whole code points); a pattern valid only
 * without it (like `a{`) is accepted in legacy mode.
 * @throws ToolwardenError INVALID_ARGS when the pattern is empty, longer than {@link MAX_GREP_PATTERN_CHARS} (V8
 * compiles a regular expression on its first use and refuses literals of some 50,000 characters only then, mid-walk),
 * or is not a valid regular expression.
 */
export function compileGrepPattern(pattern: string, ignoreCase = false): GrepPattern {
  if (typeof pattern !== 'string' || pattern.length === 0) {
    throw new ToolwardenError('INVALID_ARGS', 'grep pattern must be a non-empty regular expression string');
  }
  if (pattern.length > MAX_GREP_PATTERN_CHARS) {
    throw new ToolwardenError('INVALID_ARGS', `grep pattern ${quote(pattern)} is ${pattern.length} characters long, over the limit of ${MAX_GREP_PATTERN_CHARS}`);
  }
  const base = ignoreCase ? 'i' : '';
  const flags = compileFlags(pattern, base);
  return {
    line: new RegExp(pattern, flags),
    scan: LOOKAROUND.test(pattern) ? undefined : new RegExp(pattern, `${flags}gm`),
    required: ignoreCase ? undefined : findRequiredLiteral(pattern),
  };
}

// Error messages name the pattern, shortened: a huge pattern would otherwise fill the model's context.
function quote(pattern: string): string {
  return pattern.length > 80 ? `'${pattern.slice(0, 80)}…'` : `'${pattern}'`;
}

function compileFlags(pattern: string, base: string): string {
  try {
    new RegExp(pattern, `${base}u`);
    return `${base}u`;
  } catch (unicodeError) {
    try {
      new RegExp(pattern, base);
      return base;
    } catch {
      const reason = unicodeError instanceof Error ? unicodeError.message : String(unicodeError);
      throw new ToolwardenError('INVALID_ARGS', `grep pattern ${quote(pattern)} is not a valid JavaScript regular expression: ${reason.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '')}`);
    }
  }
}
