import { describe, expect, it } from 'vitest';
import { validatePermissionSpec, type KnownTools } from '../../src/policy/index.js';
import { BUILTIN_TOOL_NAMES } from '../../src/tools/builtin-schemas.js';

const KNOWN: KnownTools = { names: [...BUILTIN_TOOL_NAMES, 'shout'], mcpServerIds: ['github', 'docs'] };
const check = (spec: unknown) => validatePermissionSpec(spec, 'permissions', KNOWN);

describe('rules name real tools', () => {
  it.each([
    ['a typo of a built-in tool', { bsh: 'deny' }, /'bsh', which is not a built-in, host or MCP tool; did you mean 'bash'\?/],
    ['a typo with pattern lists', { read_fiel: { deny: ['secret/**'] } }, /'read_fiel'.*did you mean 'read_file'\?/],
    ['a name that is nothing like a tool', { launch_missiles: 'deny' }, /'launch_missiles', which is not a built-in/],
    ['__proto__', JSON.parse('{"__proto__": "deny"}'), /'__proto__'/],
    ['constructor', { constructor: 'deny' }, /'constructor'/],
    ['a pattern used as a key', { '*_file': 'deny' }, /rule keys are exact tool names: to match names by pattern, use '\*'/],
    ['an MCP pattern used as a key', { 'mcp__github__*': 'deny' }, /a pattern; rule keys are exact tool names/],
    ['an MCP key of an unconfigured server', { mcp__gihub__create_issue: 'deny' }, /MCP server 'gihub', which is not configured; did you mean 'github'\?/],
    ['a malformed MCP key', { mcp__github: 'deny' }, /not an MCP tool name/],
    ["a '*' pattern matching no tool", { '*': { deny: ['bsh'] } }, /permissions\['\*'\]\.deny\[0\] 'bsh' matches tool names but no built-in.*did you mean 'bash'\?/],
    ["a '*' MCP pattern of an unconfigured server", { '*': { ask: ['mcp__slack__*'] } }, /'mcp__slack__\*'.*MCP server 'slack', which is not configured/],
  ])('refuses %s with INVALID_OPTIONS naming it', (_name, spec, message) => {
    expect(() => check(spec)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(message) }));
  });

  it.each([
    ['a built-in tool', { bash: 'deny' }],
    ['a host tool', { shout: { default: 'ask' } }],
    ['an MCP tool of a configured server', { mcp__github__create_issue: 'deny' }],
    ["'*' as a shorthand", { '*': 'ask' }],
    ["an MCP pattern in '*'", { '*': { deny: ['mcp__github__*'] } }],
    ["an MCP pattern over every server in '*'", { '*': { deny: ['mcp__*'] } }],
    ["a name pattern in '*' matching built-in tools", { '*': { allow: ['read_*', 'grep'] } }],
  ])('accepts %s', (_name, spec) => {
    expect(check(spec)).toEqual(spec);
  });

  it('checks only the syntax when the known tools are not given (the public helper without context)', () => {
    expect(validatePermissionSpec({ bsh: 'deny' }, 'permissions')).toEqual({ bsh: 'deny' });
  });

  it('accepts any well-formed MCP server when the configured ones are not known', () => {
    expect(validatePermissionSpec({ mcp__any__tool: 'deny' }, 'permissions', { names: ['bash'] })).toEqual({ mcp__any__tool: 'deny' });
  });
});
