import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellParser } from '../../runtime/shell-parser.js';
import { analyzeShellCommand, checkShellCommand, type ShellCheck, type ShellParser } from '../../src/shell/index.js';
import { createHostileFixture, type HostileFixture } from './hostile-fixture.js';

// tree-sitter-bash splits a double-quoted string at its newlines and keeps them in no node; a word built from the
// nodes lost them, so the code `eval` and `bash -c` run was read as one line.
type Expect = 'allow' | 'refuse' | 'deny';
const CASES: [string, Expect][] = [
  ['eval "echo a\ncat link-out-file"', 'deny'],
  ['bash -c "echo a\ncat link-out-file"', 'deny'],
  ['sh -c "true\n\ncat ../outside/secret.txt"', 'deny'],
  ['eval "echo \\"a\nb\\"; cat link-out-file"', 'deny'],
  // near misses
  ['eval "echo a\necho b"', 'allow'],
  ['bash -c "cat a.txt\nwc -l b.txt"', 'allow'],
  ['echo "a\nb" > out.txt', 'allow'],
];

let parser: ShellParser;
let fx: HostileFixture;
beforeAll(async () => {
  parser = await loadShellParser();
  fx = createHostileFixture();
});
afterAll(() => fx.cleanup());

const check = (command: string): ShellCheck => checkShellCommand(analyzeShellCommand(parser, command, fx.ctx), fx.resolver, { sandboxed: false });

describe('newlines inside double quotes stay in the word', () => {
  it.each(CASES)('%j -> %s', (command, expected) => {
    const result = check(command);
    const got = result.verdict === 'allow' ? 'allow' : expected === 'refuse' ? 'refuse' : result.verdict;
    expect(got, JSON.stringify(result.reasons)).toBe(expected);
  });

  it('keeps them in the value', () => {
    const analysis = analyzeShellCommand(parser, 'printf %s "a\n\nb"', fx.ctx);
    expect(analysis.commands[0]?.argv).toEqual(['printf', '%s', 'a\n\nb']);
  });
});
