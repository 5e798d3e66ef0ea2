export { applyEdit, type EditResult } from './edit.js';
export { applyHunks, planPatch, type PatchPlanStep } from './patch-apply.js';
export { parsePatch, type Hunk, type HunkLine, type PatchOp } from './patch-parse.js';
export { formatReadResult, isProbablyBinary, type ReadFormatOptions, type ReadFormatResult } from './read-format.js';
