import { ToolwardenError } from '../errors.js';
import { parseEnvelopePatch } from './patch-parse-envelope.js';
import { parseUnifiedPatch } from './patch-parse-unified.js';
import type { PatchOp } from './patch-types.js';

export type { Hunk, HunkLine, PatchOp } from './patch-types.js';

/**
 * Parses a patch into file operations, detecting its format: the `*** Begin Patch` envelope (Add, Update, Delete,
 * Move, `@@` anchors, `*** End of File`) or unified diffs (`diff -u`, `git diff` with `/dev/null`, renames and
 * `\ No newline at end of file`). Line breaks may be LF or CRLF.
 * @throws ToolwardenError INVALID_ARGS naming the patch line and what was expected there.
 * @example parsePatch('*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n') // [{ kind: 'delete', path: 'old.txt' }]
 */
export function parsePatch(patch: string): PatchOp[] {
  if (typeof patch !== 'string' || patch.trim() === '') {
    throw new ToolwardenError('INVALID_ARGS', "apply_patch: patch is empty; expected '*** Begin Patch' or a unified diff");
  }
  const lines = patch.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const first = lines.find((line) => line.trim() !== '')?.trim();
  return first === '*** Begin Patch' ? parseEnvelopePatch(lines) : parseUnifiedPatch(lines);
}
