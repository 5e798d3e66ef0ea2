import { describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { bindTokenToNode, type NodeFloor } from '../../src/capability/token-bound.js';
import { DEFAULT_LIMITS, UNLIMITED_AT_ZERO, type Limits } from '../../src/limits.js';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { makeCapability } from '../helpers/capability.js';

/** The node: a host list, limits raised on two fields, two credentials, two MCP servers. */
const FLOOR: NodeFloor = {
  sandbox: 'auto',
  toolModules: ['file:///tools/a.js'],
  blocklist: DEFAULT_BLOCKLIST,
  net: ['api.test', '*.example.com', 'registry.test:443'],
  limits: { ...DEFAULT_LIMITS, commandTimeoutMs: 60_000, writeQuotaBytes: 1_000_000, egressMaxBytes: 10_000_000 },
  credentials: { GH_TOKEN: { value: 'ghp-node-secret', hosts: ['api.test', 'uploads.test'] }, NPM_TOKEN: { value: 'npm-node-secret', hosts: ['registry.test:443'], in: ['header', 'query'] } },
  mcpServerIds: ['gh', 'docs'],
};

/** A token as a control plane mints it: within the node everywhere, credentials named by reference. */
const token = (overrides: Partial<Capability> = {}): Capability =>
  makeCapability({ net: ['api.test'], limits: { ...DEFAULT_LIMITS, writeQuotaBytes: 1000, egressMaxBytes: 1000 }, credentials: { GH_TOKEN: { hosts: ['api.test'] } }, env: [], ...overrides } as Partial<Capability>);

const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

describe('a token from another signer asks no more than the node holds: ESCALATION naming the field', () => {
  it.each<[string, Partial<Capability>, string]>([
    ['net: every host on a host-list node', { net: ['*'] }, "net grants '*'"],
    ['net: a host the node does not list', { net: ['api.test', 'evil.test'] }, "net grants 'evil.test'"],
    ['net: an exact name the node reaches only by wildcard (private reach)', { net: ['intranet.example.com'] }, "net grants 'intranet.example.com'"],
    ['net: a private address', { net: ['10.0.0.5'] }, "net grants '10.0.0.5'"],
    ['net: another port', { net: ['registry.test:8443'] }, "net grants 'registry.test:8443'"],
    ['credentials: a name the node does not hold', { credentials: { AWS_KEY: { hosts: ['api.test'] } } } as Partial<Capability>, "credentials names 'AWS_KEY', which this node does not hold"],
    ['credentials: hosts wider than the node credential', { credentials: { GH_TOKEN: { hosts: ['api.test', 'evil.test'] } } } as Partial<Capability>, "credentials.GH_TOKEN.hosts grants 'evil.test'"],
    ['credentials: a wildcard over the node credential hosts', { credentials: { NPM_TOKEN: { hosts: ['*.test'] } } } as Partial<Capability>, "credentials.NPM_TOKEN.hosts grants '*.test'"],
    ['credentials: a place the node credential does not allow', { credentials: { GH_TOKEN: { hosts: ['api.test'], in: ['header', 'body'] } } } as Partial<Capability>, "credentials.GH_TOKEN.in puts it in 'body'"],
    ['credentials: a value carried in the token', { credentials: { GH_TOKEN: { value: 'from-the-token', hosts: ['api.test'] } } }, 'credentials.GH_TOKEN carries a value'],
    ['mcpServers: a server id the node does not configure', { mcpServers: ['gh', 'shadow:run_*'] }, "mcpServers names server 'shadow'"],
    ['limits: a limit left out (it would read as no limit at all)', { limits: Object.fromEntries(Object.entries({ ...DEFAULT_LIMITS, writeQuotaBytes: 1000, egressMaxBytes: 1000 }).filter(([key]) => key !== 'maxProcesses')) as unknown as Limits }, 'limits.maxProcesses is missing'],
    ...[...UNLIMITED_AT_ZERO].map((key): [string, Partial<Capability>, string] => [
      `limits: ${key} 0 (unlimited) under the node's bound`,
      { limits: { ...DEFAULT_LIMITS, writeQuotaBytes: 1000, egressMaxBytes: 1000, [key]: 0 } },
      `limits.${key}=0 (unlimited) exceeds this node's ${FLOOR.limits[key]}`,
    ]),
    ...LIMIT_KEYS.map((key): [string, Partial<Capability>, string] => [
      `limits.${key} above the node's`,
      { limits: { ...DEFAULT_LIMITS, writeQuotaBytes: 1000, egressMaxBytes: 1000, [key]: FLOOR.limits[key] + 1 } },
      `limits.${key}=${FLOOR.limits[key] + 1} exceeds this node's ${FLOOR.limits[key]}`,
    ]),
  ])('%s', (_name, overrides, message) => {
    expect(() => bindTokenToNode(token(overrides), FLOOR)).toThrow(expect.objectContaining({ code: 'ESCALATION', message: expect.stringContaining(message) }));
  });

  it('a node without network, credentials or MCP servers refuses any of them', () => {
    const bare: NodeFloor = { ...FLOOR, net: false, credentials: {}, mcpServerIds: [] };
    expect(() => bindTokenToNode(token({ credentials: {}, mcpServers: [] }), bare)).toThrow(expect.objectContaining({ code: 'ESCALATION', message: expect.stringContaining("net grants 'api.test'") }));
    expect(() => bindTokenToNode(token({ net: false, mcpServers: [] }), bare)).toThrow(expect.objectContaining({ message: expect.stringContaining("credentials names 'GH_TOKEN'") }));
    expect(() => bindTokenToNode(token({ net: false, credentials: {} }), bare)).toThrow(expect.objectContaining({ message: expect.stringContaining("mcpServers names server 'gh'") }));
  });
});

describe('near misses: equal or narrower is accepted, and the node fills in its credential values', () => {
  it.each<[string, Partial<Capability>]>([
    ['net: exactly the node list', { net: ['api.test', '*.example.com', 'registry.test:443'] }],
    ['net: a deeper wildcard and one port', { net: ['*.cdn.example.com', 'api.test:443'] }],
    ['net: none', { net: false }],
    ['credentials: none', { credentials: {} }],
    ['credentials: the node hosts exactly', { credentials: { GH_TOKEN: { hosts: ['api.test', 'uploads.test'] }, NPM_TOKEN: { hosts: ['registry.test:443'] } } } as Partial<Capability>],
    ['credentials: a place the node allows', { credentials: { NPM_TOKEN: { hosts: ['registry.test:443'], in: ['query'] } } } as Partial<Capability>],
    ['mcpServers: configured ids, tool patterns', { mcpServers: ['gh:list_*', 'docs:read'] }],
    ['limits: exactly the node limits', { limits: { ...FLOOR.limits } }],
    ['limits: lower everywhere', { limits: Object.fromEntries(LIMIT_KEYS.map((key) => [key, Math.max(1, Math.floor(FLOOR.limits[key] / 2))])) as unknown as Limits }],
  ])('%s', (_name, overrides) => {
    expect(() => bindTokenToNode(token(overrides), FLOOR)).not.toThrow();
  });

  it('credential values come from the node, with the token hosts', () => {
    const bound = bindTokenToNode(token({ credentials: { GH_TOKEN: { hosts: ['uploads.test'] } } } as Partial<Capability>), FLOOR);
    expect(bound.credentials).toEqual({ GH_TOKEN: { value: 'ghp-node-secret', hosts: ['uploads.test'] } });
  });

  it('an unlimited write quota stays allowed under an unlimited node', () => {
    const unlimited: NodeFloor = { ...FLOOR, limits: { ...FLOOR.limits, writeQuotaBytes: 0, egressMaxBytes: 0 } };
    expect(() => bindTokenToNode(token({ limits: { ...DEFAULT_LIMITS, writeQuotaBytes: 0, egressMaxBytes: 0 } }), unlimited)).not.toThrow();
  });
});
