import type { Hunk, PatchOp } from './patch-types.js';
import { invalidPatch, readCountedHunkBody, readOpenHunkBody } from './patch-hunk-body.js';

const DEV_NULL = '/dev/null';
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface FileSection {
  oldPath?: string;
  newPath?: string;
  gitOld?: string;
  gitNew?: string;
  renameFrom?: string;
  renameTo?: string;
  isNew: boolean;
  isDeleted: boolean;
  headerLine: number;
}

/** Parses unified diffs (`diff -u`, `git diff`): one op per file section; text outside sections is ignored. */
export function parseUnifiedPatch(lines: readonly string[]): PatchOp[] {
  const ops: PatchOp[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.startsWith('diff --git ') || isFileHeader(lines, i)) {
      const { op, next } = parseSection(lines, i);
      ops.push(op);
      i = next;
    } else if (line.startsWith('@@')) {
      throw invalidPatch(i + 1, `expected '--- a/<path>' and '+++ b/<path>' before the hunk '${line}'`);
    } else {
      i++;
    }
  }
  if (ops.length === 0) throw invalidPatch(1, "no file header found: expected '--- a/<path>' followed by '+++ b/<path>'");
  return ops;
}

function parseSection(lines: readonly string[], start: number): { op: PatchOp; next: number } {
  const section: FileSection = { isNew: false, isDeleted: false, headerLine: start + 1 };
  let i = start;
  let stripPrefix = true;
  if ((lines[i] ?? '').startsWith('diff --git ')) {
    const names = splitGitNames((lines[i] ?? '').slice('diff --git '.length));
    stripPrefix = names === undefined || (names[0].startsWith('a/') && names[1].startsWith('b/'));
    if (names) [section.gitOld, section.gitNew] = names;
    i = readGitExtendedHeaders(lines, i + 1, section);
  }
  if (isFileHeader(lines, i)) {
    const oldName = unquote(stripTimestamp((lines[i] ?? '').slice(4)));
    const newName = unquote(stripTimestamp((lines[i + 1] ?? '').slice(4)));
    const strip = stripPrefix && (oldName === DEV_NULL || oldName.startsWith('a/')) && (newName === DEV_NULL || newName.startsWith('b/'));
    section.oldPath = oldName === DEV_NULL ? DEV_NULL : strip ? oldName.slice(2) : oldName;
    section.newPath = newName === DEV_NULL ? DEV_NULL : strip ? newName.slice(2) : newName;
    i += 2;
  }
  const hunks: Hunk[] = [];
  while ((lines[i] ?? '').startsWith('@@')) {
    const { hunk, next } = parseHunk(lines, i);
    hunks.push(hunk);
    i = next;
    while (lines[i] === '' && (lines[i + 1] ?? '').startsWith('@@')) i++;
  }
  return { op: toOp(section, hunks, stripPrefix), next: i };
}

function readGitExtendedHeaders(lines: readonly string[], start: number, section: FileSection): number {
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('diff --git ') || line.startsWith('@@') || isFileHeader(lines, i)) break;
    if (line.startsWith('new file mode')) section.isNew = true;
    else if (line.startsWith('deleted file mode')) section.isDeleted = true;
    else if (line.startsWith('rename from ')) section.renameFrom = unquote(line.slice('rename from '.length));
    else if (line.startsWith('rename to ')) section.renameTo = unquote(line.slice('rename to '.length));
    else if (line.startsWith('copy from ') || line.startsWith('copy to ')) throw invalidPatch(i + 1, 'copies are not supported; add the new file with its content instead');
    else if (line.startsWith('GIT binary patch') || (line.startsWith('Binary files ') && line.endsWith(' differ'))) {
      throw invalidPatch(i + 1, 'binary patches are not supported; only text changes can be applied');
    } else if (!/^(index |similarity index |dissimilarity index |old mode |new mode )/.test(line)) break;
  }
  return i;
}

function parseHunk(lines: readonly string[], start: number): { hunk: Hunk; next: number } {
  const header = lines[start] ?? '';
  const counts = HUNK_HEADER.exec(header);
  const body = counts
    ? (readCountedHunkBody(lines, start + 1, Number(counts[2] ?? '1'), Number(counts[4] ?? '1')) ?? readOpenBody(lines, start + 1))
    : readOpenBody(lines, start + 1);
  if (body.lines.length === 0) throw invalidPatch(start + 2, `expected hunk lines starting with ' ', '-' or '+' after '${header}'`);
  const hunk: Hunk = {
    anchors: [],
    lines: body.lines,
    atEof: body.oldNoNewline,
    oldNoNewline: body.oldNoNewline,
    newNoNewline: body.newNoNewline,
    patchLine: start + 1,
    header,
  };
  if (counts) hunk.oldStart = Number(counts[1]);
  return { hunk, next: body.next };
}

function readOpenBody(lines: readonly string[], start: number): ReturnType<typeof readOpenHunkBody> {
  return readOpenHunkBody(lines, start, (index) => {
    const line = lines[index] ?? '';
    return line.startsWith('@@') || line.startsWith('diff --git ') || isFileHeader(lines, index);
  });
}

function toOp(section: FileSection, hunks: Hunk[], stripPrefix: boolean): PatchOp {
  const fromGit = (name: string | undefined, prefix: string): string | undefined =>
    name === undefined ? undefined : stripPrefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  const oldPath = section.renameFrom ?? section.oldPath ?? fromGit(section.gitOld, 'a/');
  const newPath = section.renameTo ?? section.newPath ?? fromGit(section.gitNew, 'b/');
  const where = section.headerLine;
  if (oldPath === undefined || newPath === undefined) throw invalidPatch(where, "cannot tell the file's path: expected '--- a/<path>' and '+++ b/<path>'");
  if (oldPath === DEV_NULL || (section.isNew && hunks.length === 0)) {
    if (newPath === DEV_NULL) throw invalidPatch(where, 'both sides are /dev/null');
    return { kind: 'add', path: newPath, content: joinAddedLines(hunks) };
  }
  if (newPath === DEV_NULL || section.isDeleted) return { kind: 'delete', path: oldPath };
  if (hunks.length === 0 && oldPath === newPath) throw invalidPatch(where, `the section for ${oldPath} has no hunks ('@@ -l,n +l,n @@')`);
  return oldPath === newPath ? { kind: 'update', path: oldPath, hunks } : { kind: 'update', path: oldPath, moveTo: newPath, hunks };
}

function joinAddedLines(hunks: readonly Hunk[]): string {
  let content = '';
  for (const hunk of hunks) {
    if (hunk.lines.some((line) => line.kind !== 'add')) throw invalidPatch(hunk.patchLine, 'a new file (from /dev/null) can only have added lines');
    for (const line of hunk.lines) content += `${line.text}\n`;
  }
  if (hunks.at(-1)?.newNoNewline) content = content.slice(0, -1);
  return content;
}

function isFileHeader(lines: readonly string[], index: number): boolean {
  return (lines[index] ?? '').startsWith('--- ') && (lines[index + 1] ?? '').startsWith('+++ ');
}

// `diff -u` appends a tab and a timestamp; git appends a tab to names with spaces.
function stripTimestamp(name: string): string {
  const tab = name.indexOf('\t');
  return (tab === -1 ? name : name.slice(0, tab)).trimEnd();
}

// Git quotes names with unusual characters C-style: "a/tab\there".
function unquote(name: string): string {
  if (!(name.length >= 2 && name.startsWith('"') && name.endsWith('"'))) return name;
  const escapes: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\' };
  const bytes: number[] = [];
  const inner = name.slice(1, -1);
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i] ?? '';
    if (ch !== '\\') {
      bytes.push(...new TextEncoder().encode(ch));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(inner.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(...new TextEncoder().encode(escapes[inner[i + 1] ?? ''] ?? inner[i + 1] ?? ''));
      i++;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

// `a/x b/x`, or quoted names. Unquoted names with spaces are only split when both sides name the same file.
function splitGitNames(rest: string): [string, string] | undefined {
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  if (quoted?.[1] !== undefined && quoted[2] !== undefined) return [unquote(quoted[1]), unquote(quoted[2])];
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.slice(2, half) === rest.slice(half + 3)) return [rest.slice(0, half), rest.slice(half + 1)];
  return undefined;
}
