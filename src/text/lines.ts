/** A file split into lines; each line keeps its own terminator so lines a change does not touch stay byte-identical. */
export interface FileLines {
  /** Line texts without their terminators. */
  lines: string[];
  /** The terminator after each line: `'\n'`, `'\r\n'`, or `''` (only possible for the last line). */
  eols: string[];
  /** The file's dominant line ending (CRLF only when CRLF lines outnumber LF lines). */
  eol: '\n' | '\r\n';
}

/** Splits text into lines, recording each terminator; `''` gives no lines, `'a\n'` gives one. */
export function splitFileLines(content: string): FileLines {
  const lines: string[] = [];
  const eols: string[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < content.length) {
    const nl = content.indexOf('\n', start);
    if (nl === -1) {
      lines.push(content.slice(start));
      eols.push('');
      break;
    }
    const cr = nl > start && content.charCodeAt(nl - 1) === 13;
    lines.push(content.slice(start, cr ? nl - 1 : nl));
    eols.push(cr ? '\r\n' : '\n');
    if (cr) crlf++;
    else lf++;
    start = nl + 1;
  }
  return { lines, eols, eol: crlf > lf ? '\r\n' : '\n' };
}

/** Whether the split file ended with a line terminator. */
export function hasTrailingNewline(file: FileLines): boolean {
  const last = file.eols[file.eols.length - 1];
  return last !== undefined && last !== '';
}

/**
 * Joins lines back into text. Lines missing a terminator in the middle get `eol`; the last line gets its own
 * terminator (or `eol`) when `trailingNewline`, none otherwise.
 */
export function joinFileLines(lines: readonly string[], eols: readonly string[], eol: string, trailingNewline: boolean): string {
  let out = '';
  const last = lines.length - 1;
  for (let i = 0; i < lines.length; i++) {
    const own = eols[i] ?? '';
    const terminator = i < last ? own || eol : trailingNewline ? own || eol : '';
    out += lines[i] + terminator;
  }
  return out;
}
