import { describe, expect, it } from 'vitest';
import { describeOutcome, formatTable, terminalWidth, wrapWords } from '../../cli/demo/format-table.js';

describe('formatTable', () => {
  it('aligns the columns under a header and a rule', () => {
    const table = formatTable([
      { call: 'read_file a', outcome: 'allowed', detail: '1 hello' },
      { call: 'bash: rm -rf /', outcome: 'refused', detail: 'OUTSIDE_WORKSPACE: no' },
    ]);
    expect(table).toBe(
      [
        'CALL            OUTCOME  CODE AND REASON / FIRST LINE OF OUTPUT',
        '--------------  -------  --------------------------------------',
        'read_file a     allowed  1 hello',
        'bash: rm -rf /  refused  OUTSIDE_WORKSPACE: no',
        '',
      ].join('\n'),
    );
  });

  it('wraps a long reason under its column without cutting a word', () => {
    const detail = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const lines = formatTable([{ call: 'x', outcome: 'refused', detail }], 60).trimEnd().split('\n').slice(2);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((line) => line.length <= 60)).toBe(true);
    // The detail column starts after 'CALL', 'refused' and two gaps of two: 4 + 2 + 7 + 2 = 15.
    expect(lines.slice(1).every((line) => line.startsWith(' '.repeat(15)) && !line.startsWith(' '.repeat(16)))).toBe(true);
    expect(lines.map((line) => line.slice(15)).join(' ')).toBe(detail);
  });

  it('hangs the reason on indented lines when the terminal is too narrow for the column', () => {
    const detail = 'CODE: a reason long enough to need several lines at this width';
    const lines = formatTable([{ call: 'a call with a long label', outcome: 'refused', detail }], 40).trimEnd().split('\n').slice(2);
    expect(lines.slice(1).every((line) => line.startsWith('    ') && line.length <= 40)).toBe(true);
    expect(lines[0]).toMatch(/^a call with a long label\s+refused\s+CODE:$/);
    expect(lines.join(' ').replace(/\s+/g, ' ').replace('a call with a long label refused ', '')).toBe(detail);
  });
});

describe('wrapWords and terminalWidth', () => {
  it('keeps a word longer than the width whole on its own line', () => {
    expect(wrapWords('a bbbbbbbbbb c', 5)).toEqual(['a', 'bbbbbbbbbb', 'c']);
  });

  it.each([[undefined, 100], [0, 100], [132, 132]])('terminalWidth(%s) is %s', (columns, width) => {
    expect(terminalWidth(columns)).toBe(width);
  });
});

describe('describeOutcome', () => {
  it.each([
    ['a refusal: its code and whole message', { isError: true, code: 'BLOCKED_PATH', content: [{ text: 'BLOCKED_PATH: path .git/hooks/x is not writable\nmore' }] }, 'BLOCKED_PATH: path .git/hooks/x is not writable more'],
    ['a success: its first non-empty line', { content: [{ text: '\n     1\texport   const a = 1;\n     2\t' }] }, '1 export const a = 1;'],
    ['an error without a code', { isError: true, content: [{ text: 'boom' }] }, 'ERROR: boom'],
  ])('%s', (_name, result, expected) => {
    expect(describeOutcome(result)).toBe(expected);
  });
});
