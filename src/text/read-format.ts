import { isUtf8 } from 'node:buffer';
import { ToolwardenError } from '../errors.js';
import { splitFileLines } from './lines.js';

const BINARY_SAMPLE_BYTES = 8192;
const CONTROL_RATIO_FOR_BINARY = 0.1;
const LINE_NUMBER_WIDTH = 6;

/**
 * Whether bytes look like a binary file rather than text: a NUL byte in the first 8 KiB, or a sample that is not
 * valid UTF-8 and has a high ratio of control bytes (legacy-charset text such as GBK or Latin-1 is not binary).
 */
export function isProbablyBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, BINARY_SAMPLE_BYTES);
  if (sample.includes(0)) return true;
  if (isUtf8(trimPartialUtf8(sample, bytes.length > sample.length))) return false;
  let control = 0;
  for (const byte of sample) {
    // Tab, LF, FF, CR and ESC (ANSI colours) are common in text; other C0 bytes and DEL are not.
    if ((byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13 && byte !== 27) || byte === 0x7f) control++;
  }
  return control / sample.length > CONTROL_RATIO_FOR_BINARY;
}

/** Options for {@link formatReadResult}. */
export interface ReadFormatOptions {
  /** The path shown in notes. */
  path: string;
  /** 1-based first line to show. @default 1 */
  offset?: number;
  /** Lines to show at most. @default all */
  limit?: number;
  /** Characters of numbered lines returned at most; a note on how to read on follows the cut. */
  maxChars: number;
}

/** What {@link formatReadResult} returns; `endLine < startLine` when no line is shown. */
export interface ReadFormatResult {
  text: string;
  totalLines: number;
  startLine: number;
  endLine: number;
  /** The output was cut at `maxChars` (on a line boundary, or inside a single over-long line). */
  truncated: boolean;
  /** The offset to pass next when lines remain after `endLine`. */
  nextOffset?: number;
}

/**
 * Numbers lines like `cat -n` (`     1\tline`), honours offset and limit, cuts at `maxChars` on a line boundary (a
 * single longer line is cut with a marker) and ends with a note saying how to read on.
 * @example formatReadResult('a\nb\n', { path: 'x', maxChars: 1000 }).text // '     1\ta\n     2\tb\n'
 */
export function formatReadResult(text: string, opts: ReadFormatOptions): ReadFormatResult {
  const offset = opts.offset ?? 1;
  checkPositiveInteger(offset, 'offset', opts.path);
  if (opts.limit !== undefined) checkPositiveInteger(opts.limit, 'limit', opts.path);
  checkPositiveInteger(opts.maxChars, 'maxChars', opts.path);
  const { lines } = splitFileLines(text);
  const totalLines = lines.length;
  if (totalLines === 0) {
    return { text: `[${opts.path} is empty (0 lines)]`, totalLines, startLine: offset, endLine: offset - 1, truncated: false };
  }
  if (offset > totalLines) {
    const note = `[offset ${offset} is past the end of ${opts.path}, which has ${totalLines} line${totalLines === 1 ? '' : 's'}; call read_file with an offset from 1 to ${totalLines}]`;
    return { text: note, totalLines, startLine: offset, endLine: offset - 1, truncated: false };
  }
  const last = Math.min(totalLines, opts.limit === undefined ? totalLines : offset - 1 + opts.limit);
  let body = '';
  let endLine = offset - 1;
  let cutNote = '';
  for (let n = offset; n <= last; n++) {
    const numbered = `${String(n).padStart(LINE_NUMBER_WIDTH)}\t${lines[n - 1]}\n`;
    if (body.length + numbered.length <= opts.maxChars) {
      body += numbered;
      endLine = n;
      continue;
    }
    if (n === offset) {
      const cut = cutLongLine(numbered, opts.maxChars, n);
      body = cut.text;
      endLine = n;
      cutNote = cut.note;
    }
    break;
  }
  const truncated = cutNote !== '' || endLine < last;
  const result: ReadFormatResult = { text: body, totalLines, startLine: offset, endLine, truncated };
  if (endLine < totalLines) {
    result.nextOffset = endLine + 1;
    const prefix = truncated ? `truncated at ${opts.maxChars} characters: ` : '';
    result.text += `[${prefix}${cutNote}showing lines ${offset}-${endLine} of ${totalLines}; call read_file with offset ${endLine + 1} to continue]`;
  } else if (cutNote) {
    result.text += `[truncated at ${opts.maxChars} characters: ${cutNote.slice(0, -2)}]`;
  }
  return result;
}

function cutLongLine(numbered: string, maxChars: number, lineNumber: number): { text: string; note: string } {
  const marker = ' [… line cut]\n';
  let keep = Math.max(0, maxChars - marker.length);
  // Never split a surrogate pair.
  const before = numbered.charCodeAt(keep - 1);
  if (keep > 0 && before >= 0xd800 && before <= 0xdbff) keep--;
  const shownChars = Math.max(0, keep - LINE_NUMBER_WIDTH - 1);
  const lineChars = numbered.length - LINE_NUMBER_WIDTH - 2;
  return { text: numbered.slice(0, keep) + marker, note: `line ${lineNumber} has ${lineChars} characters, only the first ${shownChars} are shown; ` };
}

function checkPositiveInteger(value: number, name: string, path: string): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ToolwardenError('INVALID_ARGS', `read_file ${path}: ${name} must be a positive integer (lines are numbered from 1), got ${String(value)}`);
  }
}

// A sample cut from a longer file may end inside a multi-byte character; drop that partial tail before validating.
function trimPartialUtf8(sample: Uint8Array, wasCut: boolean): Uint8Array {
  if (!wasCut) return sample;
  for (let back = 1; back <= 3 && back <= sample.length; back++) {
    const byte = sample[sample.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    if ((byte & 0xc0) === 0xc0) return sample.subarray(0, sample.length - back);
    return sample;
  }
  return sample;
}
