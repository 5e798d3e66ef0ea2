import { describe, expect, it } from 'vitest';
import { toolExposure } from '../../src/policy/index.js';

const exposed = { tools: ['read_file', 'grep'], mcpServers: ['github:list_*', 'tracker'] };

describe('toolExposure: which tools a capability exposes', () => {
  it.each([
    ['a built-in tool it names', 'read_file', true],
    ['a built-in tool it does not name', 'bash', false],
    ['a name that is no tool at all', 'nosuch', false],
    ['an MCP tool an entry prefix allows', 'mcp__github__list_issues', true],
    ['an MCP tool outside the entry prefix', 'mcp__github__create_issue', false],
    ['any tool of a whole-server entry', 'mcp__tracker__anything', true],
    ['an MCP tool of a server it has no entry for', 'mcp__jira__list_issues', false],
    ['an MCP-looking name that does not split', 'mcp__github', false],
    ['a tool named like an MCP entry', 'tracker', false],
    ['the MCP prefix on a tool list name', 'mcp__read_file', false],
  ])('%s: %s', (_rule, tool, visible) => {
    expect(toolExposure(exposed, tool).visible).toBe(visible);
  });

  it('lists what it exposes only for a refusal', () => {
    expect(toolExposure(exposed, 'read_file')).toEqual({ visible: true, allowed: [] });
    expect(toolExposure(exposed, 'bash')).toEqual({ visible: false, allowed: ['read_file', 'grep', 'MCP github:list_*', 'MCP tracker'] });
  });

  it("asks the session's own MCP check when given one", () => {
    expect(toolExposure(exposed, 'mcp__github__list_issues', () => false).visible).toBe(false);
    expect(toolExposure({ tools: [], mcpServers: [] }, 'mcp__x__y', () => true).visible).toBe(true);
  });
});
