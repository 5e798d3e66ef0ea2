import { ToolwardenError } from '../errors.js';
import type { HunkLine } from './patch-types.js';

/** The lines of one hunk as read from a patch, and the index of the first line after them. */
export interface HunkBody {
  lines: HunkLine[];
  oldNoNewline: boolean;
  newNoNewline: boolean;
  next: number;
}

/** An INVALID_ARGS error naming the 1-based patch line and what was expected there. */
export function invalidPatch(lineNumber: number, message: string): ToolwardenError {
  return new ToolwardenError('INVALID_ARGS', `apply_patch: patch line ${lineNumber}: ${message}`);
}

/**
 * Reads hunk lines (` `, `-`, `+`, `\ No newline…`, and bare empty lines as empty context, since editors strip the
 * space) from `start` until a line that is none of these or `isEnd` says stop. Trailing bare empty lines are
 * separators, not context.
 */
export function readOpenHunkBody(lines: readonly string[], start: number, isEnd: (index: number) => boolean): HunkBody {
  const body = emptyBody(start);
  let i = start;
  while (i < lines.length && !isEnd(i) && isHunkLine(lines[i] ?? '')) {
    addBodyLine(body, lines[i] ?? '', i);
    i++;
  }
  let end = i;
  while (end > start && lines[end - 1] === '' && body.lines.at(-1)?.text === '') {
    body.lines.pop();
    end--;
  }
  body.next = i;
  return body;
}

/**
 * Reads exactly the lines a unified header's counts announce. Returns undefined when the body does not fit them
 * (ends early, has a foreign line, or is followed by more hunk lines), so the caller can fall back to
 * {@link readOpenHunkBody}: counts written by hand or by a model are often wrong.
 */
export function readCountedHunkBody(lines: readonly string[], start: number, oldCount: number, newCount: number): HunkBody | undefined {
  const body = emptyBody(start);
  let oldLeft = oldCount;
  let newLeft = newCount;
  let i = start;
  while (oldLeft > 0 || newLeft > 0) {
    const line = lines[i];
    if (line === undefined || !isHunkLine(line)) return undefined;
    const kind = addBodyLine(body, line, i);
    if (kind !== 'add' && kind !== 'marker') oldLeft--;
    if (kind !== 'remove' && kind !== 'marker') newLeft--;
    if (oldLeft < 0 || newLeft < 0) return undefined;
    i++;
  }
  while (lines[i]?.startsWith('\\')) addBodyLine(body, lines[i] ?? '', i++);
  const after = lines[i];
  if (after !== undefined && continuesHunk(after, lines[i + 1])) return undefined;
  body.next = i;
  return body;
}

function emptyBody(start: number): HunkBody {
  return { lines: [], oldNoNewline: false, newNoNewline: false, next: start };
}

function isHunkLine(line: string): boolean {
  return line === '' || line[0] === ' ' || line[0] === '-' || line[0] === '+' || line[0] === '\\';
}

// After a counted body: another hunk line means the counts were wrong. A `--- `/`+++ ` pair is the next file's
// header and `-- ` alone is the signature `git format-patch` appends.
function continuesHunk(line: string, following: string | undefined): boolean {
  if (line === '-- ') return false;
  if (line.startsWith('--- ') && following?.startsWith('+++ ')) return false;
  return line[0] === ' ' || line[0] === '-' || line[0] === '+';
}

function addBodyLine(body: HunkBody, line: string, index: number): HunkLine['kind'] | 'marker' {
  const tag = line[0];
  if (tag === '\\') {
    const previous = body.lines.at(-1);
    if (!previous) throw invalidPatch(index + 1, `'${line}' must follow a hunk line`);
    if (previous.kind !== 'add') body.oldNoNewline = true;
    if (previous.kind !== 'remove') body.newNoNewline = true;
    return 'marker';
  }
  const kind: HunkLine['kind'] = tag === '-' ? 'remove' : tag === '+' ? 'add' : 'context';
  body.lines.push({ kind, text: line.slice(1) });
  return kind;
}
