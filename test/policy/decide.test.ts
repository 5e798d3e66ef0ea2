import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalMemory, decide, isStricter, narrowPermissions, subjectKey } from '../../src/policy/index.js';
import type { Decision, PermissionLayers, PolicySubject } from '../../src/policy/index.js';
import { bash, file, mcp } from './helpers.js';

type Case = [name: string, layers: PermissionLayers, subject: PolicySubject, decision: Decision, gate: string, rule: string];

const CASES: Case[] = [
  // two gates: both must allow, strictest wins
  ['host deny beats session allow', { host: { bash: { deny: ['git push*'] } }, session: [{ bash: 'allow' }] }, bash(['git push']), 'deny', 'host', "host rule bash.deny 'git push*'"],
  ['session deny beats host allow', { host: { bash: 'allow' }, session: [{ bash: { deny: ['git push*'] } }] }, bash(['git push']), 'deny', 'session', "session rule bash.deny 'git push*'"],
  ['host ask beats session allow', { host: { write_file: 'ask' }, session: [{ write_file: 'allow' }] }, file('write_file', 'a'), 'ask', 'host', "host rule write_file: 'ask'"],
  ['session ask beats host allow', { host: { write_file: 'allow' }, session: [{ write_file: { ask: ['**'] } }] }, file('write_file', 'a'), 'ask', 'session', "session rule write_file.ask '**'"],
  ['both allow: the explicit rule is named over the default', { host: {}, session: [{ bash: { allow: ['npm test'] } }] }, bash(['npm test']), 'allow', 'session', "session rule bash.allow 'npm test'"],
  ['a session allow cannot lift the host default ask', { host: {}, session: [{ bash: { allow: ['mystery'] } }] }, bash(['mystery'], 'ask'), 'ask', 'default', "default for bash: static check 'ask'"],
  ['host and session both allow the unknown command', { host: { bash: { allow: ['mystery'] } }, session: [{ bash: { allow: ['mystery'] } }] }, bash(['mystery'], 'ask'), 'allow', 'host', "host rule bash.allow 'mystery'"],
  ['no host rules: the session alone decides', { session: [{ bash: { allow: ['mystery'] } }] }, bash(['mystery'], 'ask'), 'allow', 'session', "session rule bash.allow 'mystery'"],
  ['no rules at all: built-in default', { session: [] }, bash(['weird'], 'ask'), 'ask', 'default', "default for bash: static check 'ask'"],
  ['safe && evil across gates', { host: { bash: { deny: ['curl *'] } }, session: [{ bash: { allow: ['npm test', 'curl *'] } }] }, bash(['npm test', 'curl x']), 'deny', 'host', "host rule bash.deny 'curl *'"],
  ['host denies an MCP server', { host: { '*': { deny: ['mcp__gh__*'] } }, session: [{ mcp__gh__list: 'allow' }] }, mcp('mcp__gh__list'), 'deny', 'host', "host rule *.deny 'mcp__gh__*'"],
  // attenuation chains
  ['parent layer deny survives a permissive child', { session: narrowPermissions([{ bash: { deny: ['rm *'] } }], { bash: 'allow' }) }, bash(['rm x']), 'deny', 'session', "session layer 1 rule bash.deny 'rm *'"],
  ['child layer adds a deny', { session: narrowPermissions([{ bash: 'allow' }], { bash: { deny: ['rm *'] } }) }, bash(['rm x']), 'deny', 'session', "session layer 2 rule bash.deny 'rm *'"],
  ['grandchild adds an ask', { session: narrowPermissions(narrowPermissions([{}], { read_file: 'allow' }), { read_file: { ask: ['secrets/**'] } }) }, file('read_file', 'secrets/k'), 'ask', 'session', "session layer 3 rule read_file.ask 'secrets/**'"],
  ['a child of a rule-less parent cannot lift the default ask', { session: narrowPermissions([], { bash: 'allow' }) }, bash(['mystery'], 'ask'), 'ask', 'default', "default for bash: static check 'ask'"],
  ['child without rules keeps the parent layers', { session: narrowPermissions([{ write_file: 'deny' }], undefined) }, file('write_file', 'a'), 'deny', 'session', "session rule write_file: 'deny'"],
  // static deny is a floor
  ['a static deny denies under an allow rule', { host: { bash: 'allow' }, session: [] }, bash(['cat /etc/passwd'], 'deny'), 'deny', 'static', "static check 'deny' (rules said 'allow' by host rule bash: 'allow')"],
  // dangerous removal
  ['dangerous under an allow rule still asks', { host: { bash: 'allow' }, session: [{ bash: { allow: ['rm *'] } }] }, bash(['rm -rf ~'], 'allow', true), 'ask', 'dangerous', "dangerous removal always asks (rules allow by host rule bash: 'allow')"],
  ['dangerous under a deny rule denies', { host: { bash: { deny: ['rm *'] } }, session: [] }, bash(['rm -rf /'], 'ask', true), 'deny', 'host', "host rule bash.deny 'rm *'"],
  ['dangerous under an ask rule asks by that rule', { session: [{ bash: { ask: ['rm *'] } }] }, bash(['rm -rf .'], 'allow', true), 'ask', 'session', "session rule bash.ask 'rm *'"],
  ['dangerous with no rules asks', { session: [] }, bash(['rm -rf /usr'], 'allow', true), 'ask', 'dangerous', "dangerous removal always asks (rules allow by default for bash: static check 'allow')"],
];

describe('decide', () => {
  it.each(CASES)('%s', (_name, layers, subject, decision, gate, rule) => {
    expect(decide(layers, subject)).toMatchObject({ decision, gate, rule });
  });

  it.each([
    ['normal call', bash(['git push'], 'allow'), ['allow', 'deny', 'allow-always']],
    ['dangerous call', bash(['rm -rf ~'], 'allow', true), ['allow', 'deny']],
  ] as const)('offers options for a %s', (_name, subject, options) => {
    expect(decide({ session: [{ bash: 'ask' }] }, subject).options).toEqual(options);
  });

  it('says which command decided', () => {
    expect(decide({ host: { bash: { deny: ['curl *'] } }, session: [] }, bash(['ls', 'curl x'])).item).toBe('curl x');
  });
});

describe('remembered answers', () => {
  const layers: PermissionLayers = { host: { bash: { ask: ['git push*'], deny: ['rm *'] } }, session: [] };

  it.each([
    ['turns a later ask for the same subject into allow', bash(['git push']), bash(['git push']), 'allow', 'remembered'],
    ['whitespace differences are the same subject', bash(['git push']), bash(['git  push ']), 'allow', 'remembered'],
    ['a different command still asks', bash(['git push']), bash(['git push --force']), 'ask', 'host'],
    ['another command added to the list still asks', bash(['git push']), bash(['git push', 'echo hi']), 'ask', 'host'],
    ['never lifts a deny', bash(['rm x']), bash(['rm x']), 'deny', 'host'],
    ['never applies to dangerous calls', bash(['git push']), bash(['git push'], 'allow', true), 'ask', 'host'],
    ['file paths are a set', file('write_file', 'b', 'a'), file('write_file', 'a', 'b'), 'allow', 'remembered'],
    ['another path still asks', file('write_file', 'a'), file('write_file', 'c'), 'ask', 'host'],
  ] as const)('%s', (_name, answered, later, decision, gate) => {
    const memory = new ApprovalMemory();
    memory.remember(subjectKey(answered));
    const spec: PermissionLayers = answered.kind === 'file' ? { host: { write_file: 'ask' }, session: [] } : layers;
    expect(decide(spec, later, memory)).toMatchObject({ decision, gate });
  });

  it('a remembered answer names the rule it replaced', () => {
    const memory = new ApprovalMemory();
    memory.remember(subjectKey(mcp('mcp__gh__create')));
    expect(decide({ session: [{ mcp__gh__create: 'ask' }] }, mcp('mcp__gh__create'), memory).rule).toBe(
      "remembered 'allow-always' answer (would ask by session rule mcp__gh__create: 'ask')",
    );
  });

  it('memory is per instance', () => {
    const memory = new ApprovalMemory();
    memory.remember(subjectKey(bash(['git push'])));
    expect(new ApprovalMemory().has(subjectKey(bash(['git push'])))).toBe(false);
    expect(memory.has(subjectKey(bash(['git push'])))).toBe(true);
  });
});

describe('attenuation never loosens', () => {
  const decision = fc.constantFrom<Decision>('allow', 'ask', 'deny');
  const patterns = fc.array(fc.constantFrom('git *', 'git push*', 'rm *', 'npm test', 'ls', '*'), { maxLength: 3 });
  const rule = fc.oneof(decision, fc.record({ allow: patterns, ask: patterns, deny: patterns, default: decision }, { requiredKeys: [] }));
  const spec = fc.dictionary(fc.constantFrom('bash', '*'), rule, { maxKeys: 2 });
  const commands = fc.array(fc.constantFrom('git push', 'git status', 'rm -rf x', 'npm test', 'ls', 'make'), { minLength: 1, maxLength: 3 });

  it('adding a child layer gives an answer at least as strict', () => {
    fc.assert(
      fc.property(fc.option(spec, { nil: undefined }), fc.array(spec, { maxLength: 2 }), spec, commands, decision, fc.boolean(), (host, chain, child, cmds, staticVerdict, dangerous) => {
        const subject = bash(cmds, staticVerdict, dangerous);
        const before = decide({ host, session: chain }, subject).decision;
        const after = decide({ host, session: narrowPermissions(chain, child) }, subject).decision;
        return !isStricter(before, after);
      }),
      { seed: 4, numRuns: 500 },
    );
  });
});
