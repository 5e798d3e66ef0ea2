import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { createRuntime } from '../../runtime/index.js';
import { McpHub } from '../../runtime/mcp/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { hostileServer, textOf, trackHubs } from './helpers.js';

// A per-user stdio server started with ${user.token} in its env quotes the value back in every place it can: object
// keys, tool names, schema property names, descriptions, resource links, errors, and in base64 and percent-encoded form.
const SECRET = `tok/${process.pid}+v@l ue=Z~\u00e4`;
const TENANTS = { alice: { mcpServers: ['h'], secrets: { token: SECRET } } };
const PLACEHOLDER = '${user.token}';
const track = trackHubs();

/** The forms of the value a client could decode back: as written, percent-encoded in any case, base64 at any offset. */
function leakedForms(value: string): string[] {
  const bytes = Buffer.from(value);
  const percent = encodeURIComponent(value);
  const everyByte = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  const base64 = [0, 1, 2].flatMap((offset) => {
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = text.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    return [core, core.replaceAll('+', '-').replaceAll('/', '_')];
  });
  return [value, percent, percent.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()), everyByte, everyByte.toUpperCase(), ...base64];
}

function expectNoLeak(value: unknown): void {
  const text = JSON.stringify(value);
  for (const form of leakedForms(SECRET)) expect(text).not.toContain(form);
}

function perUserHub(): McpHub {
  return track(new McpHub({ h: hostileServer(['--leak-listing'], { env: { TOKEN: PLACEHOLDER }, perUser: true }) }, TENANTS));
}

describe('a per-user server never gets its secret back to the caller', () => {
  it('the server did receive the value (the masking hides a real value, not a missing one)', async () => {
    const hub = perUserHub();
    const tools = await hub.listTools('h', 'alice');
    expect(tools.map((tool) => tool.name)).toContain(`leak_${PLACEHOLDER}`);
  });

  it('tool listings: names, titles, descriptions, schema property names, defaults, enums, required', async () => {
    const tools = await perUserHub().listTools('h', 'alice');
    expectNoLeak(tools);
    const leak = tools.find((tool) => tool.name === `leak_${PLACEHOLDER}`);
    expect(leak).toMatchObject({
      name: `leak_${PLACEHOLDER}`,
      title: `Title ${PLACEHOLDER}`,
      description: `Uses ${PLACEHOLDER}`,
      inputSchema: { properties: { [PLACEHOLDER]: { type: 'string', default: PLACEHOLDER } }, required: [PLACEHOLDER] },
      outputSchema: { properties: { [`out_${PLACEHOLDER}`]: { type: 'string' } } },
    });
  });

  it('results: object keys, nested values, resource links, embedded resources, base64 and percent forms', async () => {
    const result = await perUserHub().callTool('h', 'leak', {}, 'alice');
    expectNoLeak(result);
    expect(result.structuredContent).toMatchObject({ [PLACEHOLDER]: { nested: [`deep ${PLACEHOLDER}`, { [`k-${PLACEHOLDER}`]: expect.any(String) }] }, plain: 'kept' });
    expect(textOf(result)).toContain(`raw ${PLACEHOLDER}`);
    expect(textOf(result)).toContain(`query ?t=${PLACEHOLDER}&lower=${PLACEHOLDER}&all=${PLACEHOLDER}`);
  });

  it('errors the server sends', async () => {
    const result = await perUserHub().callTool('h', 'leak_error', {}, 'alice');
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toContain(`token ${PLACEHOLDER} is not valid`);
    expectNoLeak(result);
  });

  it('near miss: a result without the secret is returned exactly, keys holding a part of it included', async () => {
    const result = await perUserHub().callTool('h', 'plain', {}, 'alice');
    expect(result).toEqual({
      content: [{ type: 'text', text: 'tokens: none; key "token" and "abc" are ordinary' }],
      structuredContent: { token: 'ordinary', image: Buffer.from('not a secret').toString('base64'), [SECRET.slice(0, 5)]: 'a part of it is no secret' },
    });
  });
});

describe('a session using the per-user server', () => {
  let ws: TempTree;
  beforeAll(() => {
    ws = makeTempTree('tw-mcp-masking', {});
  });
  afterAll(() => ws.cleanup());

  it('lists and calls under masked names; the audit never holds the value', async () => {
    const events: AuditEvent[] = [];
    const rt = await createRuntime({ idleWorkers: 0, sandbox: 'off', audit: { callback: (event: AuditEvent) => void events.push(event), full: true }, mcpServers: { h: hostileServer(['--leak-listing'], { env: { TOKEN: PLACEHOLDER }, perUser: true }) }, tenants: TENANTS });
    try {
      const s = await rt.openSession({ workspaceRoot: ws.root, user: 'alice', mcpServers: ['h'] });
      const tools = await s.listTools();
      expect(tools.map((tool) => tool.name)).toContain(`mcp__h__leak_${PLACEHOLDER}`);
      expectNoLeak(tools);
      expectNoLeak(await s.call('mcp__h__leak', {}));
      expectNoLeak(await s.call('mcp__h__leak_error', {}));
      await s.close();
      expectNoLeak(events);
    } finally {
      await rt.close();
    }
  });
});
