import { describe, expect, it } from 'vitest';
import { ApprovalMemory, describeSubject, explain, readOnlyTools, subjectKey } from '../../src/policy/index.js';

describe('explain', () => {
  const host = { bash: { deny: ['git push*'], allow: ['npm *'] }, read_file: { deny: ['secrets/**'] } };

  it('shows the deciding rule, each layer and each command', () => {
    const e = explain({ host, session: { bash: { ask: ['npm publish*'] } } }, 'bash', { command: 'npm test && git push' }, {
      subject: { commands: ['npm test', 'git push'], staticVerdict: 'allow' },
    });
    expect(e).toMatchObject({ decision: 'deny', gate: 'host', rule: "host rule bash.deny 'git push*'", item: 'git push' });
    expect(e.layers.map((l) => [l.layer, l.verdict.decision])).toEqual([
      ['host', 'deny'],
      ['session', 'allow'],
    ]);
    expect(e.text).toBe(
      [
        'bash {"command":"npm test && git push"} -> deny',
        "  decided by: host rule bash.deny 'git push*' (command 'git push')",
        "  host: deny by host rule bash.deny 'git push*'",
        "    command 'npm test': allow by host rule bash.allow 'npm *'",
        "    command 'git push': deny by host rule bash.deny 'git push*'",
        "  session: allow by default for bash: static check 'allow'",
        "    command 'npm test': allow by default for bash: static check 'allow'",
        "    command 'git push': allow by default for bash: static check 'allow'",
      ].join('\n'),
    );
  });

  it('derives paths from args and normalizes them', () => {
    const e = explain({ host }, 'read_file', { path: './secrets/../secrets/key' });
    expect(e).toMatchObject({ decision: 'deny', item: 'secrets/key', subject: { kind: 'file', paths: ['secrets/key'] } });
  });

  it('lists approver options for an ask, without allow-always when dangerous', () => {
    const e = explain({ session: [{ bash: 'allow' }] }, 'bash', { command: 'rm -rf ~' }, { subject: { staticVerdict: 'allow', dangerous: true } });
    expect(e.decision).toBe('ask');
    expect(e.options).toEqual(['allow', 'deny']);
    expect(e.text).toContain('  approver options: allow, deny');
    expect(e.text).toContain('  dangerous: always asks, never remembered');
  });

  it('applies remembered answers', () => {
    const memory = new ApprovalMemory();
    memory.remember(subjectKey(describeSubject('mcp__gh__create', {})));
    expect(explain({ host: { mcp__gh__create: 'ask' } }, 'mcp__gh__create', {}, { remembered: memory }).gate).toBe('remembered');
  });

  it('says when no layer exists', () => {
    expect(explain({}, 'lookup', {}).text).toBe(["lookup {} -> allow", "  decided by: default for lookup: 'allow' (other tools)", '  no rule layers: built-in defaults apply'].join('\n'));
  });
});

describe('describeSubject', () => {
  it.each([
    ['bash', { command: 'ls -la' }, { tool: 'bash', kind: 'bash', commands: ['ls -la'] }],
    ['read_file', { path: 'src//a.ts' }, { tool: 'read_file', kind: 'file', paths: ['src/a.ts'] }],
    ['grep', { pattern: 'x' }, { tool: 'grep', kind: 'file', paths: ['.'] }],
    ['apply_patch', { patch: '*** Begin Patch' }, { tool: 'apply_patch', kind: 'file', paths: [] }],
    ['mcp__fs__read', { path: 'a' }, { tool: 'mcp__fs__read', kind: 'mcp' }],
    ['weather', {}, { tool: 'weather', kind: 'other' }],
  ])('%s', (tool, args, subject) => {
    expect(describeSubject(tool, args)).toEqual(subject);
  });
});

describe('readOnlyTools', () => {
  it('classifies bash, read_file, glob and grep as read-only', () => {
    expect(readOnlyTools()).toEqual(['bash', 'read_file', 'glob', 'grep']);
  });
});
