import { ToolwardenError } from '../errors.js';

const LISTED_MATCH_LINES = 5;

/** What {@link applyEdit} returns. */
export interface EditResult {
  content: string;
  replacements: number;
}

/**
 * Replaces `oldString` with `newString` in a file's content: exactly one occurrence, or every one with `replaceAll`.
 * When the strings' line endings differ from the file's (`\n` against a CRLF file, or the reverse), they are matched
 * and written in the file's convention.
 * @throws ToolwardenError INVALID_ARGS when `oldString` is empty or equals `newString`; EDIT_MISMATCH when it is not
 * found, or found several times without `replaceAll`.
 * @example applyEdit('a = 1\n', 'a = 1', 'a = 2', false, 'x.ts') // { content: 'a = 2\n', replacements: 1 }
 */
export function applyEdit(content: string, oldString: string, newString: string, replaceAll: boolean, path: string): EditResult {
  if (oldString === '') {
    throw new ToolwardenError('INVALID_ARGS', `edit_file ${path}: old_string is empty; give the exact text to replace, or use write_file to write the whole file`);
  }
  if (oldString === newString) {
    throw new ToolwardenError('INVALID_ARGS', `edit_file ${path}: old_string and new_string are identical, so the edit would change nothing`);
  }
  for (const [from, to] of candidatePairs(content, oldString, newString)) {
    const positions = findAll(content, from);
    if (positions.length === 0) continue;
    if (positions.length > 1 && !replaceAll) {
      const lines = positions.slice(0, LISTED_MATCH_LINES).map((p) => lineNumberAt(content, p));
      const more = positions.length > LISTED_MATCH_LINES ? ', …' : '';
      throw new ToolwardenError(
        'EDIT_MISMATCH',
        `edit_file ${path}: old_string occurs ${positions.length} times (at lines ${lines.join(', ')}${more}); include more surrounding lines so it is unique, or set replace_all to true to replace every occurrence`,
        { occurrences: positions.length },
      );
    }
    return { content: replaceAt(content, positions, from.length, to), replacements: positions.length };
  }
  throw new ToolwardenError('EDIT_MISMATCH', `edit_file ${path}: old_string was not found in the file. ${describeNearMiss(content, oldString)}`);
}

// The strings as given first, then converted to the file's line endings when they differ.
function candidatePairs(content: string, oldString: string, newString: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [[oldString, newString]];
  const fileHasCrlf = content.includes('\r\n');
  if (fileHasCrlf && /(^|[^\r])\n/.test(oldString)) {
    pairs.push([toCrlf(oldString), toCrlf(newString)]);
  } else if (!fileHasCrlf && oldString.includes('\r\n')) {
    pairs.push([oldString.replace(/\r\n/g, '\n'), newString.replace(/\r\n/g, '\n')]);
  }
  return pairs;
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function findAll(content: string, needle: string): number[] {
  const positions: number[] = [];
  for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + needle.length)) positions.push(at);
  return positions;
}

function replaceAt(content: string, positions: readonly number[], length: number, replacement: string): string {
  let out = '';
  let from = 0;
  for (const at of positions) {
    out += content.slice(from, at) + replacement;
    from = at + length;
  }
  return out + content.slice(from);
}

function lineNumberAt(content: string, index: number): number {
  let line = 1;
  for (let at = content.indexOf('\n'); at !== -1 && at < index; at = content.indexOf('\n', at + 1)) line++;
  return line;
}

// A hint for the model: the usual causes are copied line-number prefixes and whitespace differences.
function describeNearMiss(content: string, oldString: string): string {
  if (/^\s*\d+\t/.test(oldString)) {
    return 'It starts with a line number and a tab, as read_file shows them: copy only the text after the tab.';
  }
  const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();
  const squashed = squash(oldString);
  if (squashed !== '' && squash(content).includes(squashed)) {
    return 'The text exists when whitespace is ignored: check indentation (tabs or spaces), trailing spaces and line endings, and copy the text exactly as read_file shows it.';
  }
  return 'Re-read the file and copy the text to replace exactly, including whitespace, indentation and line endings.';
}
