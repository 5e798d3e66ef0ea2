import { ToolwardenError } from '../errors.js';
import { getOldLines, type Hunk } from './patch-types.js';

/** Which hunk of which file is being placed, for messages. */
export interface HunkContext {
  path: string;
  index: number;
  total: number;
}

type LineEquality = (fileLine: string, hunkLine: string) => boolean;

const MATCH_LEVELS: ReadonlyArray<LineEquality> = [(a, b) => a === b, (a, b) => a.trimEnd() === b.trimEnd()];
const MAX_QUOTED_CHARS = 120;

/**
 * Finds where a hunk's old lines start in `lines`, at or after `from`: exact matches first, then ignoring trailing
 * whitespace. A unified line number picks the nearest match, `@@` anchors pick the first match after them;
 * otherwise the match must be unique.
 * @throws ToolwardenError EDIT_MISMATCH naming the file, the hunk and the first line that failed, or the places
 * an ambiguous hunk matches.
 */
export function locateHunk(lines: readonly string[], hunk: Hunk, from: number, ctx: HunkContext): number {
  const old = getOldLines(hunk);
  let searchFrom = from;
  for (const anchor of hunk.anchors) {
    const at = findAnchor(lines, anchor, searchFrom);
    if (at === -1) throw mismatch(ctx, hunk, `its context line '@@ ${quote(anchor)}' was not found ${describeRange(searchFrom)}`);
    // The hunk may repeat the anchor line as its first context line, so it may start on the anchor itself.
    searchFrom = old.length === 0 ? at + 1 : at;
  }
  if (old.length === 0) return placeInsertion(lines, hunk, searchFrom);
  for (const equal of MATCH_LEVELS) {
    const found = findMatches(lines, old, searchFrom, hunk.atEof, equal);
    if (found.length > 0) return chooseMatch(found, hunk, ctx);
  }
  throw mismatch(ctx, hunk, describeFailure(lines, old, searchFrom, hunk.atEof));
}

function placeInsertion(lines: readonly string[], hunk: Hunk, from: number): number {
  // `@@ -5,0 +6,2 @@` inserts after line 5; without a line number or anchor, lines are appended.
  const wanted = hunk.oldStart ?? (hunk.anchors.length > 0 ? from : lines.length);
  return Math.min(lines.length, Math.max(from, wanted));
}

function findMatches(lines: readonly string[], old: readonly string[], from: number, atEof: boolean, equal: LineEquality): number[] {
  const last = lines.length - old.length;
  const first = atEof ? last : from;
  const found: number[] = [];
  for (let start = Math.max(first, from); start <= last; start++) {
    if (matchesAt(lines, old, start, equal)) found.push(start);
  }
  return found;
}

function matchesAt(lines: readonly string[], old: readonly string[], start: number, equal: LineEquality): boolean {
  for (let k = 0; k < old.length; k++) {
    if (!equal(lines[start + k] ?? '', old[k] ?? '')) return false;
  }
  return true;
}

function chooseMatch(found: readonly number[], hunk: Hunk, ctx: HunkContext): number {
  const only = found[0] ?? 0;
  if (found.length === 1) return only;
  if (hunk.oldStart !== undefined) {
    const hint = hunk.oldStart - 1;
    const distances = found.map((start) => Math.abs(start - hint));
    const best = Math.min(...distances);
    const nearest = found.filter((_, k) => distances[k] === best);
    if (nearest.length === 1) return nearest[0] ?? only;
    return ambiguous(ctx, hunk, nearest, `is equally near lines ${nearest.map((start) => start + 1).join(' and ')} from its header`);
  }
  if (hunk.anchors.length > 0) return only;
  return ambiguous(ctx, hunk, found, `matches ${found.length} places`);
}

function ambiguous(ctx: HunkContext, hunk: Hunk, found: readonly number[], what: string): never {
  const at = found.slice(0, 5).map((start) => start + 1).join(', ');
  throw mismatch(ctx, hunk, `it ${what} (starting at lines ${at}${found.length > 5 ? ', …' : ''}), so where to apply it is ambiguous; add more unchanged context lines or an '@@ <line above the change>' anchor`);
}

// Reports the candidate that matched the most leading lines, and the first line that differs there.
function describeFailure(lines: readonly string[], old: readonly string[], from: number, atEof: boolean): string {
  const loose = MATCH_LEVELS[1] ?? ((a: string, b: string) => a === b);
  let bestStart = -1;
  let bestLength = 0;
  for (let start = from; start < lines.length; start++) {
    let k = 0;
    while (k < old.length && start + k < lines.length && loose(lines[start + k] ?? '', old[k] ?? '')) k++;
    if (k > bestLength) {
      bestStart = start;
      bestLength = k;
    }
  }
  if (bestLength === old.length && atEof) {
    return `it matches at line ${bestStart + 1} but must end at the end of the file ('*** End of File' or a no-newline marker)`;
  }
  if (bestStart === -1) return `its first line ${quote(old[0] ?? '')} was not found ${describeRange(from)}`;
  const failedAt = bestStart + bestLength;
  const found = failedAt < lines.length ? `line ${failedAt + 1} is ${quote(lines[failedAt] ?? '')}` : 'the file ends there';
  return `the closest place starts at line ${bestStart + 1}, but hunk line ${bestLength + 1} expects ${quote(old[bestLength] ?? '')} where ${found}`;
}

function mismatch(ctx: HunkContext, hunk: Hunk, reason: string): ToolwardenError {
  const header = hunk.header ? ` '${hunk.header}'` : '';
  return new ToolwardenError(
    'EDIT_MISMATCH',
    `apply_patch: hunk ${ctx.index + 1} of ${ctx.total} for ${ctx.path} (patch line ${hunk.patchLine}${header}) does not apply: ${reason}. Re-read the file and make the hunk's context and '-' lines match it exactly`,
    { path: ctx.path, hunk: ctx.index + 1 },
  );
}

function describeRange(from: number): string {
  return from === 0 ? 'in the file' : `after line ${from}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text);
}

function findAnchor(lines: readonly string[], anchor: string, from: number): number {
  for (const equal of [(a: string, b: string) => a === b, (a: string, b: string) => a.trim() === b.trim()]) {
    for (let k = from; k < lines.length; k++) if (equal(lines[k] ?? '', anchor)) return k;
  }
  return -1;
}
