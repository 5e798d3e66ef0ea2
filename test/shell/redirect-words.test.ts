import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellParser } from '../../runtime/shell-parser.js';
import { analyzeShellCommand, checkShellCommand, type ShellCheck, type ShellParser } from '../../src/shell/index.js';
import { createHostileFixture, type HostileFixture } from './hostile-fixture.js';

// tree-sitter-bash hangs the words after a redirection on it as more destinations (`cmd < f a b` reads as a
// redirection from `f a b`); bash gives them to the command as arguments. Each attack hid its arguments from the
// command's checks that way, and was allowed.
type Expect = 'allow' | 'refuse' | 'deny';
const CASES: [string, Expect][] = [
  ['rm </dev/null -rf ../ws', 'refuse'],
  ['true && rm >/dev/null -rf ../ws', 'refuse'],
  ['cp </dev/null a.txt ../ro/x', 'deny'],
  ['sed </dev/null -i s/a/b/ ../ro/ref.txt', 'deny'],
  ['tar </dev/null -xf evil.tar', 'refuse'],
  ['git </dev/null -C nested status', 'refuse'],
  ['find </dev/null nested -delete', 'deny'],
  ['echo ok | rm 2>/dev/null -r -f ../ws', 'refuse'],
  ['cat 2>&1 link-out-file', 'deny'],
  // bash rejects words after the redirection of a compound command: nothing of it runs, the check asks.
  ['{ echo hi; } > out.txt b', 'refuse'],
  ['(echo hi) > out.txt b', 'refuse'],
  // near misses: arguments after a redirection, inside the workspace
  ['cat < a.txt b.txt', 'allow'],
  ['sort > out.txt a.txt', 'allow'],
  ['grep x 2>/dev/null a.txt src', 'allow'],
  ['echo hi > out.txt there', 'allow'],
  ['cat a.txt > out.txt 2>&1', 'allow'],
  ['rm </dev/null -rf sub', 'allow'],
];

let parser: ShellParser;
let fx: HostileFixture;
beforeAll(async () => {
  parser = await loadShellParser();
  fx = createHostileFixture();
});
afterAll(() => fx.cleanup());

const check = (command: string): ShellCheck => checkShellCommand(analyzeShellCommand(parser, command, fx.ctx), fx.resolver, { sandboxed: false });

describe('words after a redirection are arguments of the command', () => {
  it.each(CASES)('%j -> %s', (command, expected) => {
    const result = check(command);
    const got = result.verdict === 'allow' ? 'allow' : expected === 'refuse' ? 'refuse' : result.verdict;
    expect(got, JSON.stringify(result.reasons)).toBe(expected);
  });

  it('gives them to the command in source order', () => {
    const analysis = analyzeShellCommand(parser, 'cat x < a.txt b.txt > out.txt y', fx.ctx);
    expect(analysis.commands).toContainEqual(expect.objectContaining({ name: 'cat', argv: ['cat', 'x', 'b.txt', 'y'] }));
    expect(analysis.accesses.filter((a) => a.mode === 'write').map((a) => a.path)).toEqual(['out.txt']);
  });
});
