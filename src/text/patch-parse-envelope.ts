import type { Hunk, PatchOp } from './patch-types.js';
import { invalidPatch, readOpenHunkBody } from './patch-hunk-body.js';

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File:';
const DELETE = '*** Delete File:';
const UPDATE = '*** Update File:';
const MOVE = '*** Move to:';
const END_OF_FILE = '*** End of File';

/** Parses the `*** Begin Patch` … `*** End Patch` format; `lines` is the patch split on line breaks. */
export function parseEnvelopePatch(lines: readonly string[]): PatchOp[] {
  let i = skipBlank(lines, 0);
  if (marker(lines, i) !== BEGIN) throw invalidPatch(i + 1, `expected '${BEGIN}'`);
  i++;
  const ops: PatchOp[] = [];
  for (;;) {
    i = skipBlank(lines, i);
    const line = marker(lines, i);
    if (line === undefined) throw invalidPatch(i + 1, `expected '${END}' before the end of the patch`);
    if (line === END) break;
    if (line.startsWith(ADD)) {
      const path = readPath(line, ADD, i);
      const { content, next } = readAddedContent(lines, i + 1, path);
      ops.push({ kind: 'add', path, content });
      i = next;
    } else if (line.startsWith(DELETE)) {
      ops.push({ kind: 'delete', path: readPath(line, DELETE, i) });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = readPath(line, UPDATE, i);
      i++;
      let moveTo: string | undefined;
      if (marker(lines, i)?.startsWith(MOVE)) {
        moveTo = readPath(marker(lines, i) ?? '', MOVE, i);
        i++;
      }
      const { hunks, next } = readUpdateHunks(lines, i, path);
      if (hunks.length === 0 && moveTo === undefined) {
        throw invalidPatch(i + 1, `expected a hunk ('@@' or lines starting with ' ', '-' or '+') for '${UPDATE} ${path}'`);
      }
      ops.push(moveTo === undefined ? { kind: 'update', path, hunks } : { kind: 'update', path, moveTo, hunks });
      i = next;
    } else {
      throw invalidPatch(i + 1, `expected '${ADD} <path>', '${UPDATE} <path>', '${DELETE} <path>' or '${END}', found ${JSON.stringify(line)}`);
    }
  }
  const trailing = skipBlank(lines, i + 1);
  if (trailing < lines.length) throw invalidPatch(trailing + 1, `unexpected text after '${END}'`);
  if (ops.length === 0) throw invalidPatch(i + 1, 'the patch has no file operations');
  return ops;
}

function readAddedContent(lines: readonly string[], start: number, path: string): { content: string; next: number } {
  let content = '';
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('***')) break;
    if (line === '' && isBlankUntilMarker(lines, i)) break;
    if (!line.startsWith('+')) throw invalidPatch(i + 1, `every line of added file ${path} must start with '+'`);
    content += `${line.slice(1)}\n`;
  }
  return { content, next: i };
}

function readUpdateHunks(lines: readonly string[], start: number, path: string): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let i = start;
  for (;;) {
    i = skipBlank(lines, i);
    const first = lines[i];
    if (first === undefined || first.startsWith('***')) return { hunks, next: i };
    const patchLine = i + 1;
    const header = first.startsWith('@@') ? first : '';
    const anchors: string[] = [];
    while (lines[i]?.startsWith('@@')) {
      const anchor = (lines[i] ?? '').slice(2).trim();
      if (anchor !== '') anchors.push(anchor);
      i++;
    }
    const body = readOpenHunkBody(lines, i, (index) => (lines[index] ?? '').startsWith('@@'));
    if (body.lines.length === 0) {
      throw invalidPatch(body.next + 1, `expected hunk lines starting with ' ', '-' or '+' in '${UPDATE} ${path}'`);
    }
    i = body.next;
    const atEof = marker(lines, i) === END_OF_FILE;
    if (atEof) i++;
    hunks.push({ anchors, lines: body.lines, atEof: atEof || body.oldNoNewline, oldNoNewline: body.oldNoNewline, newNoNewline: body.newNoNewline, patchLine, header });
  }
}

function readPath(line: string, prefix: string, index: number): string {
  const path = line.slice(prefix.length).trim();
  if (path === '') throw invalidPatch(index + 1, `expected a path after '${prefix}'`);
  return path;
}

// Marker lines are compared without surrounding whitespace, which models often add.
function marker(lines: readonly string[], index: number): string | undefined {
  return lines[index]?.trim();
}

function skipBlank(lines: readonly string[], start: number): number {
  let i = start;
  while (i < lines.length && (lines[i] ?? '').trim() === '') i++;
  return i;
}

function isBlankUntilMarker(lines: readonly string[], start: number): boolean {
  const next = skipBlank(lines, start);
  return next >= lines.length || (lines[next] ?? '').trim().startsWith('***');
}
