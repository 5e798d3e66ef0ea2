import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planPatch } from '../../src/text/patch-apply.js';
import { parsePatch } from '../../src/text/patch-parse.js';

const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

interface TextFile {
  lines: string[];
  finalNewline: boolean;
}

// Text without a final newline whose last line is empty is the same text as one line fewer with a newline.
const canonical = (file: TextFile): TextFile =>
  !file.finalNewline && file.lines.at(-1) === '' ? { lines: file.lines.slice(0, -1), finalNewline: true } : file;

const render = (file: TextFile, eol: string): string => (file.lines.length === 0 ? '' : file.lines.join(eol) + (file.finalNewline ? eol : ''));

// A tiny unified diff for one contiguous change: common prefix and suffix become context. Like diff(1), a last
// line without a newline differs from the same text with one, and gets a no-newline marker.
function diffFiles(path: string, before: TextFile, after: TextFile): string {
  const key = (file: TextFile, k: number): string => (k === file.lines.length - 1 && !file.finalNewline ? `${file.lines[k]}\u0000` : (file.lines[k] ?? ''));
  const oldLen = before.lines.length;
  const newLen = after.lines.length;
  let prefix = 0;
  while (prefix < Math.min(oldLen, newLen) && key(before, prefix) === key(after, prefix)) prefix++;
  let suffix = 0;
  while (suffix < Math.min(oldLen, newLen) - prefix && key(before, oldLen - 1 - suffix) === key(after, newLen - 1 - suffix)) suffix++;
  const from = prefix - Math.min(CONTEXT, prefix);
  const oldTo = oldLen - suffix + Math.min(CONTEXT, suffix);
  const newTo = newLen - suffix + Math.min(CONTEXT, suffix);
  const body: string[] = [];
  const emit = (tag: string, file: TextFile, k: number): void => {
    body.push(tag + (file.lines[k] ?? ''));
    if (k === file.lines.length - 1 && !file.finalNewline) body.push(NO_NEWLINE);
  };
  for (let k = from; k < prefix; k++) emit(' ', before, k);
  for (let k = prefix; k < oldLen - suffix; k++) emit('-', before, k);
  for (let k = prefix; k < newLen - suffix; k++) emit('+', after, k);
  for (let k = oldLen - suffix; k < oldTo; k++) emit(' ', before, k);
  const range = (start: number, count: number): string => `${count === 0 ? start : start + 1},${count}`;
  return [`--- a/${path}`, `+++ b/${path}`, `@@ -${range(from, oldTo - from)} +${range(from, newTo - from)} @@`, ...body, ''].join('\n');
}

// Few distinct lines, so blocks repeat and placement must rely on the line numbers; characters that mean
// something in patches (`-`, `+`, `@@`, `\`, `***`) appear at line starts.
const lineArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('x', 'y') },
  { weight: 2, arbitrary: fc.constantFrom('', 'x ', '-- ', '+', '@@ a', '\\', '*** End Patch', '  indented') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((s) => s.replace(/[\r\n]/g, '')) },
);
const fileArb = fc.record({ lines: fc.array(lineArb, { maxLength: 40 }), finalNewline: fc.boolean() }).map(canonical);
const editArb = fc.record({ kind: fc.constantFrom('replace', 'insert', 'delete'), at: fc.nat(), line: lineArb });

function applyEditTo(file: TextFile, edit: { kind: string; at: number; line: string }): TextFile {
  const lines = [...file.lines];
  if (edit.kind === 'insert') lines.splice(edit.at % (lines.length + 1), 0, edit.line);
  else if (lines.length > 0) lines.splice(edit.at % lines.length, 1, ...(edit.kind === 'replace' ? [edit.line] : []));
  return canonical({ lines, finalNewline: file.finalNewline });
}

describe('unified diffs round-trip through parsePatch and planPatch', () => {
  it('a diff of (old, new) applied to old gives new, in the old file\'s line endings', () => {
    fc.assert(
      fc.property(fileArb, editArb, fc.constantFrom('\n', '\r\n'), (before, edit, eol) => {
        const after = applyEditTo(before, edit);
        const oldText = render(before, eol);
        // A file without any line break has no convention to keep; new lines then get LF.
        const newText = render(after, oldText.includes('\n') ? eol : '\n');
        fc.pre(oldText !== newText);
        const steps = planPatch(parsePatch(diffFiles('f.txt', before, after)), (path) => (path === 'f.txt' ? oldText : undefined));
        expect(steps).toEqual([{ kind: 'write', path: 'f.txt', content: newText }]);
      }),
      { numRuns: 1500, seed: 20240611 },
    );
  });
});
