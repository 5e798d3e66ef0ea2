import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellParser } from '../../runtime/shell-parser.js';
import { analyzeShellCommand, checkShellCommand, type ShellCheck, type ShellParser } from '../../src/shell/index.js';
import { HEREDOC_CASES, HEREDOC_NEAR_MISSES } from './heredoc-cases.js';
import { createHostileFixture, type HostileFixture } from './hostile-fixture.js';

let parser: ShellParser;
let fx: HostileFixture;
beforeAll(async () => {
  parser = await loadShellParser();
  fx = createHostileFixture();
});
afterAll(() => fx.cleanup());

const check = (command: string): ShellCheck => checkShellCommand(analyzeShellCommand(parser, command, fx.ctx), fx.resolver, { sandboxed: false });

describe('here-documents read as bash reads them', () => {
  it.each(HEREDOC_CASES.map((c) => [c.command, c.expected, c.why] as const))('%j -> %s (%s)', (command, expected) => {
    const result = check(command);
    const got = result.verdict === 'allow' ? 'allow' : expected === 'refuse' ? 'refuse' : result.verdict;
    expect(got, JSON.stringify(result.reasons)).toBe(expected);
  });

  it('refuses every row whose payload bash runs', () => {
    for (const c of HEREDOC_CASES) if (c.runs) expect(c.expected, c.command).not.toBe('allow');
  });

  it.each(HEREDOC_NEAR_MISSES)('%j is allowed', (command) => {
    const result = check(command);
    expect(result.verdict, JSON.stringify(result.reasons)).toBe('allow');
  });

  it('attributes an unquoted body to its command, in the cwd the command runs in', () => {
    const analysis = analyzeShellCommand(parser, 'cd sub && cat <<EOF\n$(cat inner.txt)\nEOF\n', fx.ctx);
    expect(analysis.accesses).toContainEqual(expect.objectContaining({ path: 'inner.txt', mode: 'read', cwd: `${fx.ctx.workspaceRoot}/sub` }));
  });
});
