import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellParser } from '../../runtime/shell-parser.js';
import { analyzeShellCommand, checkShellCommand, type ShellCheck, type ShellParser } from '../../src/shell/index.js';
import { createFixture, type Fixture } from './fixture.js';

let parser: ShellParser;
let fx: Fixture;
beforeAll(async () => {
  parser = await loadShellParser();
  fx = createFixture();
});
afterAll(() => fx.cleanup());

const check = (command: string, sandboxed = false): ShellCheck => checkShellCommand(analyzeShellCommand(parser, command, fx.ctx), fx.resolver, { sandboxed });

type Verdict = 'allow' | 'ask' | 'deny';
// [name, command, each command's verdict by text, the call's verdict, whether something belongs to no command]
type Case = [string, string, Record<string, Verdict>, Verdict, boolean];

const CASES: Case[] = [
  ['every command allowed', 'cat a.txt && ls src', { 'cat a.txt': 'allow', 'ls src': 'allow' }, 'allow', false],
  ['trap with a command asks for the trap only', "trap 'rm -f x' EXIT; echo ready", { "trap 'rm -f x' EXIT": 'ask', 'echo ready': 'allow' }, 'ask', false],
  ['safe && unknown: only the unknown one asks', 'echo ok && some-unknown-tool', { 'echo ok': 'allow', 'some-unknown-tool': 'ask' }, 'ask', false],
  ['safe && refused: only the refused one denies', 'echo ok && cat /etc/passwd', { 'echo ok': 'allow', 'cat /etc/passwd': 'deny' }, 'deny', false],
  ['a refused read next to an unknown command', 'cat /etc/passwd; mystery', { 'cat /etc/passwd': 'deny', 'mystery': 'ask' }, 'deny', false],
  ['dangerous removal asks for the removal', 'rm -rf .; ls', { 'rm -rf .': 'ask', 'ls': 'allow' }, 'ask', false],
  ['a wrapper asks, its inner command is judged alone', 'sudo cat a.txt', { 'sudo cat a.txt': 'ask', 'cat a.txt': 'allow' }, 'ask', false],
  ['an unknown command in a substitution', 'echo $(mystery) ok', { 'echo $(mystery) ok': 'allow', 'mystery': 'ask' }, 'ask', false],
  ['an unresolved redirect target belongs to its command', 'echo hi > "$OUT"; ls', { 'echo hi': 'ask', 'ls': 'allow' }, 'ask', false],
  ['a parse failure holds for the whole call', 'cat a.txt &&', { 'cat a.txt': 'allow', '': 'ask' }, 'ask', true],
  ['a risky assignment prefix belongs to no listed command', 'PATH=/x ls', { 'ls': 'allow' }, 'ask', true],
  ['a redirect on a group belongs to no listed command', '{ echo a; } > $OUT', { 'echo a': 'allow' }, 'ask', true],
  ['inner code that does not parse', "eval 'echo ('", { "eval 'echo ('": 'allow', 'echo': 'allow' }, 'ask', true],
];

describe('checkShellCommand per command', () => {
  it.each(CASES)('%s: %s', (_name, command, perCommand, verdict, unattributed) => {
    const result = check(command);
    expect(Object.fromEntries(result.perCommand.map((c) => [c.text, c.verdict])), JSON.stringify(result)).toEqual(perCommand);
    expect(result.verdict).toBe(verdict);
    expect(result.callReasons.length > 0).toBe(unattributed);
  });

  it('gives each command its own reasons, without repeating its text', () => {
    const result = check("trap 'rm -f x' EXIT; echo ready");
    expect(result.perCommand).toEqual([
      { text: "trap 'rm -f x' EXIT", verdict: 'ask', reasons: ["'rm -f x': trap runs a command string later, which is not checked"], dangerous: false, boundary: false },
      { text: 'echo ready', verdict: 'allow', reasons: [], dangerous: false, boundary: false },
    ]);
    expect(result.reasons).toEqual(["trap 'rm -f x' EXIT: 'rm -f x': trap runs a command string later, which is not checked"]);
  });

  it('flags the dangerous command and keeps the call flag', () => {
    const result = check('rm -rf .; ls');
    expect(result.dangerous).toBe(true);
    expect(result.perCommand.filter((c) => c.dangerous).map((c) => c.text)).toEqual(['rm -rf .']);
  });

  it('lists every refusal of a deny, the first one deciding', () => {
    const result = check('cat /etc/passwd; head /etc/hosts');
    expect(result).toMatchObject({ verdict: 'deny', decidingPath: '/etc/passwd', code: 'NOT_READABLE' });
    expect(result.reasons).toHaveLength(2);
    expect(result.perCommand.map((c) => c.verdict)).toEqual(['deny', 'deny']);
  });

  it('merges commands with the same text into one entry', () => {
    expect(check('cat a.txt; cd src; cat a.txt').perCommand.map((c) => c.text)).toEqual(['cat a.txt', 'cd src']);
  });

  it('allows unknown commands when sandboxed, command by command', () => {
    expect(check('echo ok && some-unknown-tool', true).perCommand.map((c) => c.verdict)).toEqual(['allow', 'allow']);
  });

  it('an unknown subcommand asks for every command of that name (the analysis names unknowns, not commands)', () => {
    expect(check('git status && git frobnicate').perCommand.map((c) => [c.text, c.verdict])).toEqual([
      ['git status', 'ask'],
      ['git frobnicate', 'ask'],
    ]);
  });
});
