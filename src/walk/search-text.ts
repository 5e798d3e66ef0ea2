import type { GrepPattern } from './grep-pattern.js';

/** Called per matching line with its 1-based number and the match column; return false to stop searching. */
export type OnLineMatch = (lineNumber: number, line: string, column: number) => boolean;

/**
 * Finds the lines of `content` that match `pattern`. Lines are split on `\n`, a trailing `\r` is dropped, and a
 * final empty line after the last break does not count. Returns false when `onMatch` asked to stop.
 */
export function searchText(content: string, pattern: GrepPattern, onMatch: OnLineMatch): boolean {
  if (content.length === 0) return true;
  return pattern.scan ? scanCandidates(content, pattern.scan, pattern.line, onMatch) : testEveryLine(content, pattern.line, onMatch);
}

// Most files have no match: one regex pass over the whole text rejects them without splitting lines.
// Without lookarounds, a match inside one line is also a match of the multiline twin at the same place.
function scanCandidates(content: string, scan: RegExp, line: RegExp, onMatch: OnLineMatch): boolean {
  const finalBreak = content.endsWith('\n') ? content.length : content.length + 1;
  let lineStart = 0;
  let lineNumber = 1;
  scan.lastIndex = 0;
  for (let found = scan.exec(content); found !== null && found.index < finalBreak; found = scan.exec(content)) {
    for (let next = content.indexOf('\n', lineStart); next !== -1 && next < found.index; next = content.indexOf('\n', lineStart)) {
      lineStart = next + 1;
      lineNumber += 1;
    }
    const end = lineEnd(content, lineStart);
    const text = stripCr(content.slice(lineStart, end));
    const hit = line.exec(text);
    if (hit !== null && !onMatch(lineNumber, text, hit.index)) return false;
    if (end >= content.length) break;
    lineStart = end + 1;
    lineNumber += 1;
    scan.lastIndex = lineStart;
  }
  return true;
}

function testEveryLine(content: string, line: RegExp, onMatch: OnLineMatch): boolean {
  let lineStart = 0;
  for (let lineNumber = 1; lineStart < content.length; lineNumber += 1) {
    const end = lineEnd(content, lineStart);
    const text = stripCr(content.slice(lineStart, end));
    const hit = line.exec(text);
    if (hit !== null && !onMatch(lineNumber, text, hit.index)) return false;
    lineStart = end + 1;
  }
  return true;
}

function lineEnd(content: string, lineStart: number): number {
  const end = content.indexOf('\n', lineStart);
  return end === -1 ? content.length : end;
}

function stripCr(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
