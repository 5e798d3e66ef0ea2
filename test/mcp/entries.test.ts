import { describe, expect, it } from 'vitest';
import {
  formatMcpEntry,
  isMcpToolAllowed,
  mcpToolName,
  narrowMcpEntries,
  parseMcpEntries,
  parseMcpToolName,
  validateMcpServers,
} from '../../src/mcp/index.js';

const CONFIGURED = ['gh', 'alpha', 'my-srv'];
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('parseMcpEntries', () => {
  it.each([
    ['gh', { serverId: 'gh', tool: '', prefix: true }],
    ['gh:create_issue', { serverId: 'gh', tool: 'create_issue', prefix: false }],
    ['gh:list_*', { serverId: 'gh', tool: 'list_', prefix: true }],
    ['gh:*', { serverId: 'gh', tool: '', prefix: true }],
    ['my-srv:a.b/c', { serverId: 'my-srv', tool: 'a.b/c', prefix: false }],
  ])('parses %s', (text, entry) => {
    expect(parseMcpEntries([text], CONFIGURED)).toEqual([entry]);
  });

  it.each([
    ['unknown server id', ['nope']],
    ['unknown server id with tool', ['nope:x']],
    ['empty tool part', ['gh:']],
    ['star in the middle', ['gh:li*st']],
    ['two stars', ['gh:**']],
    ['space in tool', ['gh:a b']],
    ['empty id', [':x']],
    ['double underscore id', ['a__b:x']],
    ['non-string entry', [42]],
    ['not an array', 'gh'],
  ])('refuses %s with INVALID_OPTIONS', (_name, entries) => {
    expect(codeOf(() => parseMcpEntries(entries, CONFIGURED))).toBe('INVALID_OPTIONS');
  });

  it('names the unknown server and the configured ones', () => {
    expect(() => parseMcpEntries(['nope:x'], CONFIGURED)).toThrow(/unknown MCP server 'nope' \(configured: gh, alpha, my-srv\)/);
  });

  it.each(['gh', 'gh:create_issue', 'gh:list_*'])('formats %s back to itself', (text) => {
    expect(parseMcpEntries([text], CONFIGURED).map(formatMcpEntry)).toEqual([text]);
  });
});

describe('isMcpToolAllowed', () => {
  it.each([
    [['gh'], 'gh', 'anything', true],
    [['gh'], 'alpha', 'anything', false],
    [['gh:create_issue'], 'gh', 'create_issue', true],
    [['gh:create_issue'], 'gh', 'create_issue2', false],
    [['gh:create_issue'], 'gh', 'create', false],
    [['gh:create_issue'], 'alpha', 'create_issue', false],
    [['gh:list_*'], 'gh', 'list_a', true],
    [['gh:list_*'], 'gh', 'list_', true],
    [['gh:list_*'], 'gh', 'list', false],
    [['gh:list_*'], 'gh', 'xlist_a', false],
    [['gh:list_*'], 'alpha', 'list_a', false],
    [['gh:list_*', 'alpha:echo'], 'alpha', 'echo', true],
    [[], 'gh', 'list_a', false],
  ])('%j allows %s:%s -> %s', (entries, serverId, tool, allowed) => {
    expect(isMcpToolAllowed(parseMcpEntries(entries, CONFIGURED), serverId, tool)).toBe(allowed);
  });
});

describe('narrowMcpEntries', () => {
  it.each([
    [['gh'], ['gh']],
    [['gh'], ['gh:x']],
    [['gh'], ['gh:list_*']],
    [['gh:list_*'], ['gh:list_a']],
    [['gh:list_*'], ['gh:list_a*']],
    [['gh:list_*'], ['gh:list_*']],
    [['gh:x'], ['gh:x']],
    [['gh:x', 'alpha'], ['alpha:y', 'gh:x']],
    [['gh'], []],
  ])('%j allows narrowing to %j', (parent, requested) => {
    expect(narrowMcpEntries(parseMcpEntries(parent, CONFIGURED), requested)).toHaveLength(requested.length);
  });

  it.each([
    [['gh:x'], ['gh']],
    [['gh:x'], ['gh:x*']],
    [['gh:list_*'], ['gh']],
    [['gh:list_*'], ['gh:list*']],
    [['gh:list_*'], ['gh:lis']],
    [['gh:list_a', 'gh:list_b'], ['gh:list_*']],
    [['gh'], ['alpha']],
    [['gh'], ['alpha:x']],
    [[], ['gh:x']],
  ])('%j refuses %j with ESCALATION', (parent, requested) => {
    expect(codeOf(() => narrowMcpEntries(parseMcpEntries(parent, CONFIGURED), requested))).toBe('ESCALATION');
  });

  it('names the entry and what the parent allows', () => {
    expect(() => narrowMcpEntries(parseMcpEntries(['gh:list_*'], CONFIGURED), ['gh'])).toThrow(/'gh' asks for more than the parent allows \(gh:list_\*\)/);
  });

  it('refuses a malformed requested entry as INVALID_OPTIONS', () => {
    expect(codeOf(() => narrowMcpEntries(parseMcpEntries(['gh'], CONFIGURED), ['gh:a*b']))).toBe('INVALID_OPTIONS');
  });
});

describe('mcp tool names', () => {
  it.each([
    ['gh', 'create_issue', 'mcp__gh__create_issue'],
    ['a', '_x', 'mcp__a___x'],
    ['a-b', 'x__y', 'mcp__a-b__x__y'],
    ['a_b', 'get-sum', 'mcp__a_b__get-sum'],
  ])('%s + %s round-trips through %s', (serverId, tool, name) => {
    expect(mcpToolName(serverId, tool)).toBe(name);
    expect(parseMcpToolName(name)).toEqual({ serverId, tool });
  });

  it.each(['read_file', 'mcp__', 'mcp__gh', 'mcp__gh__', 'mcp____x', 'mcp___a__x', 'mcp__a b__x'])('%s is not an MCP tool name', (name) => {
    expect(parseMcpToolName(name)).toBeUndefined();
  });

  it('keeps two servers from shadowing each other: the only id a name can split into is the valid one', () => {
    // 'a__b' would make mcp__a__b__c ambiguous; validateMcpServers refuses such ids (see server-config tests).
    expect(parseMcpToolName(mcpToolName('a', 'b__c'))).toEqual({ serverId: 'a', tool: 'b__c' });
    expect(codeOf(() => validateMcpServers({ a__b: { command: 'x' } }))).toBe('INVALID_OPTIONS');
  });
});
