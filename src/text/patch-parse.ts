import { ToolwardenError } from '../errors.js';
import { parseEnvelopePatch } from './patch-parse-envelope.js';
import { parseUnifiedPatch } from './patch-parse-unified.js';
import type { PatchOp } from './patch-types.js';

export type { Hunk, HunkLine, PatchOp } from './patch-types.js';

/**
 * Parses a patch into file operations, detecting its format: the `*** Begin Patch` envelope (Add, Update, Delete,
 * Move, `@@` anchors, `*** End of File`) or unified diffs (`diff -u`, `git diff` with `/dev/null`, renames and
 * `\ No newline at end of file`). Line breaks may be LF or CRLF; a surrounding Markdown code fence is ignored.
 * @throws ToolwardenError INVALID_ARGS naming the patch line and what was expected there.
 * @example parsePatch('*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n') // [{ kind: 'delete', path: 'old.txt' }]
 */
export function parsePatch(patch: string): PatchOp[] {
  if (typeof patch !== 'string' || patch.trim() === '') {
    throw new ToolwardenError('INVALID_ARGS', "apply_patch: patch is empty; expected '*** Begin Patch' or a unified diff");
  }
  const split = patch.split(/\r?\n/);
  if (split.at(-1) === '') split.pop();
  const lines = stripCodeFence(split);
  const first = lines.find((line) => line.trim() !== '')?.trim();
  return first === '*** Begin Patch' ? parseEnvelopePatch(lines) : parseUnifiedPatch(lines);
}

// Models often wrap a patch in a Markdown fence (```diff … ```); the fence lines are not part of it. Blank lines
// are replaced rather than removed so reported line numbers still match the text as sent.
function stripCodeFence(lines: string[]): string[] {
  const first = lines.findIndex((line) => line.trim() !== '');
  const last = lines.findLastIndex((line) => line.trim() !== '');
  if (first === -1 || first === last || !(lines[first] ?? '').trim().startsWith('```') || (lines[last] ?? '').trim() !== '```') return lines;
  const inner = [...lines];
  inner[first] = '';
  inner[last] = '';
  return inner;
}
