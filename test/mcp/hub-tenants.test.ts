import { describe, expect, it } from 'vitest';
import { McpHub } from '../../runtime/mcp/index.js';
import type { TenantsOption } from '../../src/tenants/index.js';
import { testServer, textOf, trackHubs } from './helpers.js';

const TENANTS: TenantsOption = {
  alice: { mcpServers: ['gh', 'shared:list_*'], secrets: { token: 'alice-token' } },
  bob: { mcpServers: ['gh', 'shared'], secrets: { token: 'bob-token' } },
  eve: { mcpServers: ['gh'] },
};
const track = trackHubs();

describe('McpHub per-user servers and tenants', () => {
  it('runs one connection per user with that user’s secret, side by side', async () => {
    const hub = track(new McpHub({ gh: testServer({ env: { TOKEN: '${user.token}' }, perUser: true }), shared: testServer() }, TENANTS));
    const [a1, b1, a2, b2] = await Promise.all([
      hub.callTool('gh', 'whoami', { reversed: true }, 'alice'),
      hub.callTool('gh', 'whoami', { reversed: true }, 'bob'),
      hub.callTool('gh', 'pid', {}, 'alice'),
      hub.callTool('gh', 'pid', {}, 'bob'),
    ]);
    expect(textOf(a1 ?? { content: [] })).toBe('nekot-ecila');
    expect(textOf(b1 ?? { content: [] })).toBe('nekot-bob');
    expect(textOf(a2 ?? { content: [] })).not.toBe(textOf(b2 ?? { content: [] }));
    // Quoted verbatim, a secret comes back as its placeholder.
    expect(textOf(await hub.callTool('gh', 'whoami', {}, 'alice'))).toBe('${user.token}');
  });

  it('builds a config function per user from the tenant context', async () => {
    const seen: string[] = [];
    const hub = track(
      new McpHub(
        {
          gh: (tenant) => {
            seen.push(tenant.user);
            return testServer({ env: { TOKEN: `${tenant.user}:${tenant.secrets['token'] ?? 'none'}` } });
          },
          shared: testServer(),
        },
        TENANTS,
      ),
    );
    expect(textOf(await hub.callTool('gh', 'whoami', { reversed: true }, 'alice'))).toBe('nekot-ecila:ecila');
    expect(textOf(await hub.callTool('gh', 'whoami', { reversed: true }, 'bob'))).toBe('nekot-bob:bob');
    expect(textOf(await hub.callTool('gh', 'whoami', {}, 'alice'))).toBe('alice:${user.token}');
    expect(seen).toEqual(['alice', 'bob']);
  });

  it('refuses a user without the secret with INVALID_OPTIONS, never an empty token', async () => {
    const hub = track(new McpHub({ gh: testServer({ env: { TOKEN: '${user.token}' }, perUser: true }), shared: testServer() }, TENANTS));
    const result = await hub.callTool('gh', 'whoami', {}, 'eve');
    expect(result).toMatchObject({ isError: true, code: 'INVALID_OPTIONS' });
    expect(textOf(result)).toContain("mcpServers.gh.env.TOKEN needs secret 'token', which user 'eve' does not have");
    expect(textOf(await hub.callTool('gh', 'whoami', { reversed: true }, 'alice'))).toBe('nekot-ecila');
  });

  it.each([
    ['a per-user server without a user', 'gh', 'whoami', undefined, 'MCP_ERROR', /'gh' is per-user: only a session with a user/],
    ['an unknown user', 'gh', 'whoami', 'mallory', 'ESCALATION', /unknown user 'mallory'/],
    ['a server outside the tenant', 'shared', 'echo', 'eve', 'TOOL_NOT_ALLOWED', /MCP server 'shared' is not in the allowance of user 'eve'/],
    ['a tool outside the tenant pattern', 'shared', 'echo', 'alice', 'TOOL_NOT_ALLOWED', /MCP tool 'echo' of server 'shared' is not in the allowance of user 'alice'/],
  ])('refuses %s', async (_name, serverId, tool, user, code, message) => {
    const hub = track(new McpHub({ gh: testServer({ env: { TOKEN: '${user.token}' }, perUser: true }), shared: testServer() }, TENANTS));
    const result = await hub.callTool(serverId, tool, { text: 'x' }, user);
    expect(result).toMatchObject({ isError: true, code });
    expect(textOf(result)).toMatch(message);
  });

  it('lists only the tools inside the user’s tenant allowance', async () => {
    const hub = track(new McpHub({ gh: testServer({ env: { TOKEN: '${user.token}' }, perUser: true }), shared: testServer() }, TENANTS));
    expect((await hub.listTools('shared', 'alice')).map((tool) => tool.name).sort()).toEqual(['list_a', 'list_b']);
    expect((await hub.listTools('shared', 'bob')).map((tool) => tool.name)).toContain('echo');
    expect(textOf(await hub.callTool('shared', 'list_a', {}, 'alice'))).toBe('a1,a2');
    await expect(hub.listTools('shared', 'eve')).rejects.toMatchObject({ code: 'TOOL_NOT_ALLOWED' });
  });

  it('refuses tenants naming unknown servers at construction', () => {
    expect(() => new McpHub({ gh: testServer() }, { alice: { mcpServers: ['nope'] } })).toThrow(/tenants\.alice\.mcpServers: .*unknown MCP server 'nope'/);
  });
});
