import { ToolwardenError } from '../errors.js';
import { hasTrailingNewline, joinFileLines, splitFileLines } from './lines.js';
import { locateHunk } from './patch-locate.js';
import { getOldLines, type Hunk, type PatchOp } from './patch-types.js';

/** One file change to carry out: write `content` to `path`, or delete `path`. */
export interface PatchPlanStep {
  kind: 'write' | 'delete';
  path: string;
  content?: string;
}

/**
 * Applies hunks to a file's content. Unchanged lines (outside the hunks and their context lines) keep their bytes;
 * added lines use the file's dominant line ending; the trailing newline is kept unless a hunk at the end says otherwise with a
 * `\ No newline at end of file` marker.
 * @throws ToolwardenError EDIT_MISMATCH when a hunk does not match, or matches ambiguously.
 */
export function applyHunks(content: string, hunks: readonly Hunk[], path: string): string {
  const file = splitFileLines(content);
  let trailingNewline = file.lines.length === 0 || hasTrailingNewline(file);
  const outLines: string[] = [];
  const outEols: string[] = [];
  let cursor = 0;
  hunks.forEach((hunk, index) => {
    const start = locateHunk(file.lines, hunk, cursor, { path, index, total: hunks.length });
    const oldLength = getOldLines(hunk).length;
    for (let k = cursor; k < start; k++) {
      outLines.push(file.lines[k] ?? '');
      outEols.push(file.eols[k] ?? '');
    }
    // Context lines keep the file's own text and ending: they may have matched only up to trailing whitespace.
    let oldIndex = start;
    for (const line of hunk.lines) {
      if (line.kind === 'remove') oldIndex++;
      else if (line.kind === 'add') {
        outLines.push(line.text);
        outEols.push(file.eol);
      } else {
        outLines.push(file.lines[oldIndex] ?? line.text);
        outEols.push(file.eols[oldIndex] ?? file.eol);
        oldIndex++;
      }
    }
    cursor = start + oldLength;
    if (cursor === file.lines.length && (hunk.oldNoNewline || hunk.newNoNewline)) trailingNewline = !hunk.newNoNewline;
  });
  for (let k = cursor; k < file.lines.length; k++) {
    outLines.push(file.lines[k] ?? '');
    outEols.push(file.eols[k] ?? '');
  }
  return joinFileLines(outLines, outEols, file.eol, trailingNewline);
}

/**
 * Turns parsed ops into the file writes and deletes to perform, verifying every hunk against current content
 * first; nothing is returned unless every op succeeds. Ops run in order over the results of earlier ops, so two
 * ops may touch the same path. A move writes the new path and deletes the old one. `readFile` returns a file's
 * text or undefined when it does not exist; paths are compared as given, so canonicalize them beforehand.
 * @throws ToolwardenError listing every failed op: EDIT_MISMATCH (a hunk), CONFLICT (adding or moving onto an
 * existing file), NOT_FOUND (updating or deleting a missing file), or whatever `readFile` threw.
 * @example planPatch(parsePatch(patch), (p) => files.get(p))
 */
export function planPatch(ops: readonly PatchOp[], readFile: (path: string) => string | undefined): PatchPlanStep[] {
  const current = new Map<string, string | null>();
  const existedBefore = new Map<string, boolean>();
  const read = (path: string): string | undefined => {
    if (current.has(path)) return current.get(path) ?? undefined;
    const content = readFile(path);
    existedBefore.set(path, content !== undefined);
    return content;
  };
  const failures: ToolwardenError[] = [];
  for (const op of ops) {
    try {
      for (const [path, content] of planOp(op, read)) current.set(path, content);
    } catch (error) {
      if (!(error instanceof ToolwardenError)) throw error;
      failures.push(error);
    }
  }
  if (failures.length > 0) throw combineFailures(failures);
  const steps: PatchPlanStep[] = [];
  for (const [path, content] of current) {
    if (content !== null) steps.push({ kind: 'write', path, content });
    else if (existedBefore.get(path)) steps.push({ kind: 'delete', path });
  }
  return steps;
}

// The state changes one op makes, as [path, new content or null for deleted]; throws without changing anything.
function planOp(op: PatchOp, read: (path: string) => string | undefined): Array<[string, string | null]> {
  const existing = read(op.path);
  if (op.kind === 'add') {
    if (existing !== undefined) {
      throw new ToolwardenError('CONFLICT', `apply_patch: cannot add ${op.path}: the file already exists; use '*** Update File' (or a diff against it) to change it`, { path: op.path });
    }
    return [[op.path, op.content]];
  }
  if (existing === undefined) {
    const verb = op.kind === 'delete' ? 'delete' : 'update';
    throw new ToolwardenError('NOT_FOUND', `apply_patch: cannot ${verb} ${op.path}: the file does not exist (or an earlier op in this patch removed it)`, { path: op.path });
  }
  if (op.kind === 'delete') return [[op.path, null]];
  const updated = applyHunks(existing, op.hunks, op.path);
  if (op.moveTo === undefined || op.moveTo === op.path) return [[op.path, updated]];
  if (read(op.moveTo) !== undefined) {
    throw new ToolwardenError('CONFLICT', `apply_patch: cannot move ${op.path} to ${op.moveTo}: the destination already exists; delete it first or choose another name`, { path: op.moveTo });
  }
  return [[op.moveTo, updated], [op.path, null]];
}

function combineFailures(failures: readonly ToolwardenError[]): ToolwardenError {
  const first = failures[0] ?? new ToolwardenError('INTERNAL', 'no failure');
  const details = { failures: failures.map((failure) => ({ code: failure.code, message: failure.message, ...failure.details })) };
  if (failures.length === 1) return new ToolwardenError(first.code, `${first.message}. No file was changed`, details);
  const list = failures.map((failure) => `- ${failure.code}: ${failure.message}`).join('\n');
  return new ToolwardenError(first.code, `apply_patch: ${failures.length} operations failed, so no file was changed:\n${list}`, details);
}
