import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellParser } from '../../runtime/shell-parser.js';
import { analyzeShellCommand, checkShellCommand, type ShellParser } from '../../src/shell/index.js';
import { createFixture, type Fixture } from './fixture.js';

let parser: ShellParser;
let fx: Fixture;
beforeAll(async () => {
  parser = await loadShellParser();
  fx = createFixture();
});
afterAll(() => fx.cleanup());

const verdictOf = (command: string, sandboxed = false): string => checkShellCommand(analyzeShellCommand(parser, command, fx.ctx), fx.resolver, { sandboxed }).verdict;

describe('analyzeShellCommand', () => {
  it('loads the parser once per process', async () => {
    expect(await loadShellParser()).toBe(parser);
  });

  it('hangs the redirect of `a && b > f` on b, in the cwd b runs in', () => {
    const analysis = analyzeShellCommand(parser, 'cd src && echo x > out', fx.ctx);
    expect(analysis.accesses).toContainEqual({ path: 'out', mode: 'write', cwd: `${fx.ctx.workspaceRoot}/src`, command: 'echo x', resolved: `${fx.ctx.workspaceRoot}/src/out`, kind: 'other' });
    expect(analysis.accesses.filter((a) => a.path === 'out')).toHaveLength(1);
  });

  // What a write leaves where the command says: the static check refuses a `.git` file or symlink, not a directory.
  it.each([
    ['echo x > out', 'out', 'other'],
    ['echo x > src', 'src', 'directory'],
    ['touch out', 'out', 'other'],
    ['ln -s a out', 'out', 'other'],
    ['mkdir out', 'out', undefined],
    ['sed -i s/a/b/ out', 'out', 'other'],
    ['git init out', 'out', undefined],
  ])('%s leaves %s as %s', (command, path, kind) => {
    const writes = analyzeShellCommand(parser, command, fx.ctx).accesses.filter((a) => a.mode === 'write' && a.path === path);
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.some((a) => a.kind === kind)).toBe(true);
  });

  it('checks a path from both cwds when a cd may have failed', () => {
    const analysis = analyzeShellCommand(parser, 'cd src; cat x', fx.ctx);
    expect(analysis.accesses.filter((a) => a.path === 'x').map((a) => a.cwd).sort()).toEqual([fx.ctx.workspaceRoot, `${fx.ctx.workspaceRoot}/src`]);
  });

  it.each([
    ['sudo timeout 5 nice -n 3 cat a', ['sudo', 'timeout', 'nice', 'cat']],
    ['env A=1 B=2 xargs -n1 echo', ['env', 'xargs', 'echo']],
    ['find . -exec grep -l x {} +', ['find', 'grep']],
    ['echo $(ls) | tee >(wc -l) `pwd`', ['ls', 'wc', 'pwd', 'echo', 'tee']],
    ['bash -c "cat a; ls"', ['bash', 'cat', 'ls']],
  ])('lists wrapped and nested commands of %s', (command, names) => {
    const found = analyzeShellCommand(parser, command, fx.ctx).commands.map((c) => c.name);
    expect([...found].sort()).toEqual([...names].sort());
  });

  it('gives each simple command its own text for rule matching', () => {
    const check = checkShellCommand(analyzeShellCommand(parser, 'git status && git push origin main > log', fx.ctx), fx.resolver, { sandboxed: false });
    expect(check.commands).toEqual(['git status', 'git push origin main']);
  });

  it.each([
    ['npm test', 'allow'],
    ['./build.sh && make', 'allow'],
    ['npm test > /tmp/out', 'deny'],
    ['cat "$X"', 'ask'],
    ['rm -rf .', 'ask'],
  ])('when sandboxed, unknown commands are allowed but the static check still runs: %s', (command, verdict) => {
    expect(verdictOf(command, true)).toBe(verdict);
  });

  it('analyses a chain of 500 commands', () => {
    const long = Array.from({ length: 500 }, (_, i) => `echo ${i}`).join(' && ');
    expect(verdictOf(long)).toBe('allow');
    expect(verdictOf(`${long} && cat /etc/passwd`)).toBe('deny');
    expect(analyzeShellCommand(parser, long, fx.ctx).commands).toHaveLength(500);
  });

  it('turns absurd nesting into a parse error instead of throwing', () => {
    const nested = `${'('.repeat(3000)}ls${')'.repeat(3000)}`;
    expect(['ask', 'allow']).toContain(verdictOf(nested));
    expect(verdictOf(`${'$('.repeat(2000)}rm -rf /etc${')'.repeat(2000)}`)).not.toBe('allow');
  });
});

describe('properties', () => {
  it('never throws and always yields a verdict, for any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120, unit: fc.constantFrom(...'ab /.~$*?{},;&|<>()"\'`\\\n-=[]#!cdlsrmx'.split('')) }), (command) => {
        const check = checkShellCommand(analyzeShellCommand(parser, command, fx.ctx), fx.resolver, { sandboxed: false });
        expect(['allow', 'ask', 'deny']).toContain(check.verdict);
      }),
      { numRuns: 400 },
    );
  });

  const SAFE_PARTS = ['ls', 'echo hi', 'cat a.txt', 'cd src', 'true', 'grep -r x', 'git status', 'mkdir -p d', '(ls)', '{ pwd; }', 'if true; then ls; fi', 'for i in 1 2; do echo $i; done', 'sort a.txt | uniq'];

  it('appending `; cat /etc/passwd` to any sequence of statements never yields allow', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SAFE_PARTS), { maxLength: 6 }), fc.nat(6), fc.constantFrom('; ', ' && ', ' || ', ' | ', '\n'), (parts, at, joiner) => {
        const position = Math.min(at, parts.length);
        const statements = [...parts.slice(0, position), 'cat /etc/passwd', ...parts.slice(position)];
        const command = statements.join(joiner === ' | ' && position > 0 ? '; ' : joiner);
        expect(verdictOf(command)).not.toBe('allow');
        expect(verdictOf(`${parts.join(' && ') || 'true'}; cat /etc/passwd`)).not.toBe('allow');
      }),
      { numRuns: 300 },
    );
  });
});
