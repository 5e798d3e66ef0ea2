import { describe, expect, it } from 'vitest';
import { describeOutcome, formatTable } from '../../cli/demo/format-table.js';

describe('formatTable', () => {
  it('aligns the columns under a header and a rule', () => {
    const table = formatTable([
      { call: 'read_file a', outcome: 'allowed', detail: '1 hello' },
      { call: 'bash: rm -rf /', outcome: 'refused', detail: 'OUTSIDE_WORKSPACE: no' },
    ]);
    expect(table).toBe(
      [
        'CALL            OUTCOME  CODE / FIRST LINE',
        '--------------  -------  -----------------',
        'read_file a     allowed  1 hello',
        'bash: rm -rf /  refused  OUTSIDE_WORKSPACE: no',
        '',
      ].join('\n'),
    );
  });

  it('cuts a long detail with an ellipsis', () => {
    const line = formatTable([{ call: 'x', outcome: 'refused', detail: 'y'.repeat(200) }], 20).split('\n')[2]!;
    expect(line.endsWith(`${'y'.repeat(19)}…`)).toBe(true);
  });
});

describe('describeOutcome', () => {
  it.each([
    ['a refusal: its code and message', { isError: true, code: 'BLOCKED_PATH', content: [{ text: 'BLOCKED_PATH: path .git/hooks/x is not writable\nmore' }] }, 'BLOCKED_PATH: path .git/hooks/x is not writable'],
    ['a success: its first non-empty line', { content: [{ text: '\n     1\texport   const a = 1;\n     2\t' }] }, '1 export const a = 1;'],
    ['an error without a code', { isError: true, content: [{ text: 'boom' }] }, 'ERROR: boom'],
  ])('%s', (_name, result, expected) => {
    expect(describeOutcome(result)).toBe(expected);
  });
});
