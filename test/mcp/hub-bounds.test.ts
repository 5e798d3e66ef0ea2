import { describe, expect, it } from 'vitest';
import { McpHub } from '../../runtime/mcp/index.js';
import { childPids, HOSTILE_SERVER, hostileServer, textOf, trackHubs } from './helpers.js';

const track = trackHubs();
const FIXED_TOOLS = 5;
const MiB = 1024 * 1024;

async function pagesServed(hub: McpHub): Promise<number> {
  return Number(textOf(await hub.callTool('h', 'pages_served', {})));
}

describe('an upstream MCP server is bounded: tools/list', () => {
  it.each([
    ['every page carrying a nextCursor stops at maxPages', ['--endless', '--tools-per-page=0'], {}, /kept paging tools\/list .*past limits\.maxPages \(100\)/, 100],
    ['a configured maxPages is the one enforced', ['--endless'], { maxPages: 7 }, /past limits\.maxPages \(7\)/, 7],
    ['pages adding up to more tools than maxTools', ['--endless', '--tools-per-page=400'], {}, /listed more than 1000 tools, past limits\.maxTools \(1000\)/, 3],
    ['a tool definition past maxSchemaBytes', ['--schema-bytes=70000'], {}, /tool 't_0_0' has a definition of \d+ bytes, past limits\.maxSchemaBytes \(65536\)/, 1],
    ['a smaller configured maxSchemaBytes', ['--schema-bytes=3000'], { maxSchemaBytes: 2048 }, /past limits\.maxSchemaBytes \(2048\)/, 1],
  ])('%s: MCP_ERROR naming the limit, and no page past it is asked for', async (_name, args, limits, message, pages) => {
    const hub = track(new McpHub({ h: hostileServer(args, { limits }) }));
    await expect(hub.listTools('h')).rejects.toMatchObject({ code: 'MCP_ERROR', message: expect.stringMatching(message) });
    expect(await pagesServed(hub)).toBe(pages);
  });

  it.each([
    ['a few honest pages', ['--pages=3', '--tools-per-page=4'], {}, FIXED_TOOLS + 12],
    ['exactly maxPages pages', ['--pages=4', '--tools-per-page=1'], { maxPages: 4 }, FIXED_TOOLS + 4],
    ['exactly maxTools tools', ['--pages=5', '--tools-per-page=199'], {}, FIXED_TOOLS + 995],
    ['more tools than the default, with maxTools raised', ['--pages=3', '--tools-per-page=600'], { maxTools: 2000 }, FIXED_TOOLS + 1800],
    ['a large schema under maxSchemaBytes', ['--schema-bytes=60000'], {}, FIXED_TOOLS + 2],
  ])('near miss: %s lists every tool', async (_name, args, limits, count) => {
    const hub = track(new McpHub({ h: hostileServer(args, { limits }) }));
    expect(await hub.listTools('h')).toHaveLength(count);
  });

  it('a failed listing is not cached: the next one asks again, and is bounded again', async () => {
    const hub = track(new McpHub({ h: hostileServer(['--endless'], { limits: { maxPages: 3 } }) }));
    await expect(hub.listTools('h')).rejects.toMatchObject({ code: 'MCP_ERROR' });
    await expect(hub.listTools('h')).rejects.toMatchObject({ code: 'MCP_ERROR' });
    expect(await pagesServed(hub)).toBe(6);
  });
});

describe('paging stops when the caller or the connection goes away', () => {
  it('an aborted listing asks for no further page', async () => {
    const hub = track(new McpHub({ h: hostileServer(['--endless', '--tools-per-page=0'], { limits: { maxPages: 1_000_000 } }) }));
    const controller = new AbortController();
    const listing = hub.listTools('h', undefined, controller.signal);
    while ((await pagesServed(hub)) < 5);
    controller.abort();
    await expect(listing).rejects.toMatchObject({ code: 'MCP_ERROR' });
    // While a listing pages, every round trip of ours on the same pipe sees at least one more of its pages.
    const settled = await pagesServed(hub);
    expect(await pagesServed(hub)).toBe(settled);
    expect(await pagesServed(hub)).toBe(settled);
  });

  it('closing the hub ends the listing and its server', async () => {
    const hub = new McpHub({ h: hostileServer(['--endless', '--tools-per-page=0'], { limits: { maxPages: 1_000_000 } }) });
    const listing = hub.listTools('h');
    await expect.poll(() => childPids(HOSTILE_SERVER).length).toBe(1);
    await hub.close();
    await expect(listing).rejects.toMatchObject({ code: 'MCP_ERROR', message: expect.stringContaining('closed') });
    expect(childPids(HOSTILE_SERVER)).toEqual([]);
  });
});

describe('an upstream MCP server is bounded: results', () => {
  it('a result past maxResultBytes is MCP_ERROR naming it; the connection stays', async () => {
    const hub = track(new McpHub({ h: hostileServer([], { limits: { maxResultBytes: MiB } }) }));
    const before = await pagesServed(hub);
    const result = await hub.callTool('h', 'big', { bytes: 1.5 * MiB });
    expect(result).toMatchObject({ isError: true, code: 'MCP_ERROR' });
    expect(textOf(result)).toMatch(/tool 'big' returned \d+ bytes, past limits\.maxResultBytes \(1048576\)/);
    expect(await pagesServed(hub)).toBe(before);
  });

  it('a message far past maxResultBytes closes the connection before it is buffered whole; the next call reconnects', async () => {
    const hub = track(new McpHub({ h: hostileServer([], { limits: { maxResultBytes: MiB } }) }));
    const result = await hub.callTool('h', 'big', { bytes: 40 * MiB });
    expect(result).toMatchObject({ isError: true, code: 'MCP_ERROR' });
    expect(textOf(result)).toMatch(/sent a message of more than 2097152 bytes, past limits\.maxResultBytes \(1048576\)/);
    expect(textOf(await hub.callTool('h', 'big', { bytes: 10 }))).toBe('b'.repeat(10));
  });

  it.each([
    ['just under the limit', 1000 * 1000],
    ['the default limit is several MiB', 6 * MiB],
  ])('near miss: a result %s comes back whole', async (_name, bytes) => {
    const hub = track(new McpHub({ h: hostileServer([], bytes < MiB ? { limits: { maxResultBytes: MiB } } : {}) }));
    expect(textOf(await hub.callTool('h', 'big', { bytes }))).toHaveLength(bytes);
  });
});
