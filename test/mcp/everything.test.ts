import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { McpHub } from '../../runtime/mcp/index.js';
import { textOf } from './helpers.js';

// The package's bin is dist/index.js; running it with this node avoids depending on PATH or npx.
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

describe('McpHub against @modelcontextprotocol/server-everything', () => {
  it('lists and calls its tools over stdio', async () => {
    const hub = new McpHub({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    try {
      const names = (await hub.listTools('everything')).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
      expect(textOf(await hub.callTool('everything', 'echo', { message: 'hi' }))).toBe('Echo: hi');
      expect(textOf(await hub.callTool('everything', 'get-sum', { a: 2, b: 3 }))).toContain('5');
      const image = await hub.callTool('everything', 'get-tiny-image', {});
      expect(image.isError).toBeUndefined();
      expect(textOf(image)).toMatch(/\[image image\/png, \d+ base64 characters, not shown\]/);
    } finally {
      await hub.close();
    }
  });
});
