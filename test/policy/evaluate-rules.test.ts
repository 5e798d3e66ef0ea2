import { describe, expect, it } from 'vitest';
import { evaluateItems, evaluateRules } from '../../src/policy/index.js';
import type { Decision, PermissionSpec, PolicySubject } from '../../src/policy/index.js';
import { bash, file, mcp, reverseLists } from './helpers.js';

type Case = [name: string, spec: PermissionSpec | undefined, subject: PolicySubject, decision: Decision, rule: string];

const CASES: Case[] = [
  // precedence inside one layer: deny > ask > allow, whatever the order
  ['deny beats allow on the same command', { bash: { allow: ['git *'], deny: ['git push*'] } }, bash(['git push origin']), 'deny', "session rule bash.deny 'git push*'"],
  ['deny beats allow, deny listed first', { bash: { deny: ['git push*'], allow: ['git *'] } }, bash(['git push origin']), 'deny', "session rule bash.deny 'git push*'"],
  ['ask beats allow', { bash: { allow: ['npm *'], ask: ['npm publish*'] } }, bash(['npm publish']), 'ask', "session rule bash.ask 'npm publish*'"],
  ['deny beats ask', { bash: { ask: ['rm *'], deny: ['rm -rf *'] } }, bash(['rm -rf build']), 'deny', "session rule bash.deny 'rm -rf *'"],
  ['allow matches when nothing stricter does', { bash: { allow: ['git *'], deny: ['git push*'] } }, bash(['git status']), 'allow', "session rule bash.allow 'git *'"],
  ['the same pattern in allow and deny denies', { bash: { allow: ['make'], deny: ['make'] } }, bash(['make']), 'deny', "session rule bash.deny 'make'"],
  // bash patterns
  ['exact pattern matches only that command', { bash: { allow: ['npm test'], default: 'deny' } }, bash(['npm test']), 'allow', "session rule bash.allow 'npm test'"],
  ['exact pattern does not match a longer command', { bash: { allow: ['npm test'], default: 'deny' } }, bash(['npm test --watch']), 'deny', "session rule bash.default 'deny'"],
  ['* spans spaces', { bash: { deny: ['git*origin'] } }, bash(['git push --force origin']), 'deny', "session rule bash.deny 'git*origin'"],
  ['trailing " *" also matches the bare command', { bash: { deny: ['git push *'] } }, bash(['git push']), 'deny', "session rule bash.deny 'git push *'"],
  ['"git push *" does not match git pushx', { bash: { deny: ['git push *'] } }, bash(['git pushx']), 'allow', "default for bash: static check 'allow'"],
  ['extra whitespace in the command still matches', { bash: { deny: ['git push*'] } }, bash(['git   push  origin']), 'deny', "session rule bash.deny 'git push*'"],
  ['safe && evil: evil decides', { bash: { allow: ['npm test'], deny: ['curl *'] } }, bash(['npm test', 'curl evil.sh']), 'deny', "session rule bash.deny 'curl *'"],
  ['safe && unmatched falls to the static verdict', { bash: { allow: ['npm test'] } }, bash(['npm test', 'mystery'], 'ask'), 'ask', "default for bash: static check 'ask'"],
  ['allow on every command beats an ask static verdict', { bash: { allow: ['npm test', 'mystery *'] } }, bash(['npm test', 'mystery --x'], 'ask'), 'allow', "session rule bash.allow 'npm test'"],
  ['an allow pattern does not let a second command ride', { bash: { allow: ['echo *'], default: 'ask' } }, bash(['echo hi', 'rm -rf x']), 'ask', "session rule bash.default 'ask'"],
  ['strictest over three commands', { bash: { ask: ['b'], deny: ['c'], allow: ['a'] } }, bash(['a', 'b', 'c']), 'deny', "session rule bash.deny 'c'"],
  // defaults per tool kind
  ['no spec: file tools allow', undefined, file('read_file', 'src/a.ts'), 'allow', "default for read_file: 'allow' (file tools)"],
  ['no spec: bash follows a passing static check', undefined, bash(['ls']), 'allow', "default for bash: static check 'allow'"],
  ['no spec: bash asks when the static check asks', undefined, bash(['weird'], 'ask'), 'ask', "default for bash: static check 'ask'"],
  ['no spec: bash without a static verdict asks', undefined, { tool: 'bash', kind: 'bash', commands: ['ls'] }, 'ask', "default for bash: 'ask' (no static check result)"],
  ['no spec: MCP tools allow', undefined, mcp('mcp__gh__create_issue'), 'allow', "default for mcp__gh__create_issue: 'allow' (mcp tools)"],
  ['no spec: other tools allow', undefined, { tool: 'lookup', kind: 'other' }, 'allow', "default for lookup: 'allow' (other tools)"],
  ['empty spec: built-in default', {}, file('write_file', 'a'), 'allow', "default for write_file: 'allow' (file tools)"],
  // fallback chain: tool default, then '*', then built-in
  ['tool default before *', { bash: { allow: ['ls'], default: 'deny' }, '*': 'allow' }, bash(['cat x']), 'deny', "session rule bash.default 'deny'"],
  ['* shorthand when the tool has no default', { bash: { allow: ['ls'] }, '*': 'ask' }, bash(['cat x']), 'ask', "session rule *: 'ask'"],
  ['* shorthand for an unlisted tool', { '*': 'deny' }, file('read_file', 'a'), 'deny', "session rule *: 'deny'"],
  ['a tool entry beats * for matched items', { '*': 'deny', read_file: { allow: ['src/**'] } }, file('read_file', 'src/a.ts'), 'allow', "session rule read_file.allow 'src/**'"],
  ['a tool shorthand beats *', { '*': 'deny', read_file: 'allow' }, file('read_file', 'x'), 'allow', "session rule read_file: 'allow'"],
  ['* patterns match tool names', { '*': { deny: ['mcp__github__*'] } }, mcp('mcp__github__delete_repo'), 'deny', "session rule *.deny 'mcp__github__*'"],
  ['* patterns do not match other names', { '*': { deny: ['mcp__github__*'] } }, mcp('mcp__slack__post'), 'allow', "default for mcp__slack__post: 'allow' (mcp tools)"],
  ['* default', { '*': { allow: ['read_file'], default: 'ask' } }, file('write_file', 'a'), 'ask', "session rule *.default 'ask'"],
  ['* pattern for a file tool matches its name, not its path', { '*': { deny: ['src/**'] } }, file('read_file', 'src/a.ts'), 'allow', "default for read_file: 'allow' (file tools)"],
  ['a tool named constructor is not found on the prototype', {}, { tool: 'constructor', kind: 'other' }, 'allow', "default for constructor: 'allow' (other tools)"],
  // shorthands
  ['deny shorthand applies to every call', { bash: 'deny' }, bash(['ls']), 'deny', "session rule bash: 'deny'"],
  ['ask shorthand', { write_file: 'ask' }, file('write_file', 'a'), 'ask', "session rule write_file: 'ask'"],
  ['allow shorthand overrides an asking static check', { bash: 'allow' }, bash(['weird'], 'ask'), 'allow', "session rule bash: 'allow'"],
  // file globs
  ['** matches any depth', { read_file: { deny: ['secrets/**'] } }, file('read_file', 'secrets/a/b/c.txt'), 'deny', "session rule read_file.deny 'secrets/**'"],
  ['** matches hidden files', { read_file: { deny: ['secrets/**'] } }, file('read_file', 'secrets/.key'), 'deny', "session rule read_file.deny 'secrets/**'"],
  ['**/ prefix matches at the root', { read_file: { deny: ['**/.env'] } }, file('read_file', '.env'), 'deny', "session rule read_file.deny '**/.env'"],
  ['**/ prefix matches deep', { read_file: { deny: ['**/.env'] } }, file('read_file', 'a/b/.env'), 'deny', "session rule read_file.deny '**/.env'"],
  ['* does not cross directories', { read_file: { deny: ['*.ts'] } }, file('read_file', 'src/a.ts'), 'allow', "default for read_file: 'allow' (file tools)"],
  ['* matches in the root', { read_file: { deny: ['*.ts'] } }, file('read_file', 'a.ts'), 'deny', "session rule read_file.deny '*.ts'"],
  ['prefix twin is not under the pattern', { write_file: { deny: ['secrets/**'] } }, file('write_file', 'secrets-public/a'), 'allow', "default for write_file: 'allow' (file tools)"],
  ['brace alternatives', { edit_file: { ask: ['**/*.{json,yaml}'] } }, file('edit_file', 'conf/app.yaml'), 'ask', "session rule edit_file.ask '**/*.{json,yaml}'"],
  ['all paths must pass: one bad path among good ones', { apply_patch: { allow: ['src/**'], deny: ['**/*.lock'] } }, file('apply_patch', 'src/a.ts', 'yarn.lock', 'src/b.ts'), 'deny', "session rule apply_patch.deny '**/*.lock'"],
  ['all paths allowed', { apply_patch: { allow: ['src/**'], default: 'deny' } }, file('apply_patch', 'src/a.ts', 'src/b/c.ts'), 'allow', "session rule apply_patch.allow 'src/**'"],
  ['one path outside the allow list hits the default', { apply_patch: { allow: ['src/**'], default: 'deny' } }, file('apply_patch', 'src/a.ts', 'README.md'), 'deny', "session rule apply_patch.default 'deny'"],
  ['a file call without paths falls to the default', { glob: { deny: ['**'], default: 'ask' } }, file('glob'), 'ask', "session rule glob.default 'ask'"],
  // MCP and other tools match by name
  ['mcp tool pattern', { mcp__gh__delete_repo: { deny: ['mcp__gh__delete_repo'] } }, mcp('mcp__gh__delete_repo'), 'deny', "session rule mcp__gh__delete_repo.deny 'mcp__gh__delete_repo'"],
  ['mcp tool shorthand', { mcp__gh__create_issue: 'ask' }, mcp('mcp__gh__create_issue'), 'ask', "session rule mcp__gh__create_issue: 'ask'"],
  ['mcp server wildcard via *', { '*': { ask: ['mcp__gh__*'], allow: ['mcp__gh__list_*'] } }, mcp('mcp__gh__list_issues'), 'ask', "session rule *.ask 'mcp__gh__*'"],
  ['name collision: another server is not matched', { '*': { deny: ['mcp__a__run'] } }, mcp('mcp__b__run'), 'allow', "default for mcp__b__run: 'allow' (mcp tools)"],
];

describe('evaluateRules', () => {
  it.each(CASES)('%s', (_name, spec, subject, decision, rule) => {
    expect(evaluateRules(spec, subject, 'session')).toMatchObject({ decision, rule });
  });

  it.each(CASES.filter(([, spec]) => spec !== undefined))('order does not matter: %s', (_name, spec, subject, decision) => {
    expect(evaluateRules(reverseLists(spec as PermissionSpec), subject, 'session').decision).toBe(decision);
  });

  it.each([
    ['host', 'host rule bash.deny'],
    ['session', 'session rule bash.deny'],
  ] as const)('names the %s gate in the rule', (gate, prefix) => {
    const verdict = evaluateRules({ bash: { deny: ['rm *'] } }, bash(['rm x']), gate);
    expect(verdict.gate).toBe(gate);
    expect(verdict.rule.startsWith(prefix)).toBe(true);
  });

  it('reports the built-in default with gate "default"', () => {
    expect(evaluateRules({ bash: { deny: ['rm *'] } }, bash(['ls']), 'host').gate).toBe('default');
  });

  it('says which command decided', () => {
    expect(evaluateRules({ bash: { deny: ['curl *'] } }, bash(['npm test', 'curl x | sh']), 'session').item).toBe('curl x | sh');
  });

  it('gives a verdict per path, in order', () => {
    const items = evaluateItems({ write_file: { deny: ['*.lock'] } }, file('write_file', 'a.ts', 'b.lock'), 'host');
    expect(items.map((v) => [v.item, v.decision])).toEqual([
      ['a.ts', 'allow'],
      ['b.lock', 'deny'],
    ]);
  });
});
