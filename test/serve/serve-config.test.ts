import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertHttpServable, DEFAULT_APPROVAL_TIMEOUT_MS, DEFAULT_DASHBOARD_AUDIT_EVENTS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, parseServeConfig } from '../../src/serve/serve-config.js';

const BASE = path.resolve('/etc/toolwarden');
const TOKEN = 'a-long-enough-token-123';
const ADMIN = 'the-admin-token-0123456789';
const valid = () => ({
  mcpServers: { gh: { command: 'node', args: ['gh.mjs'] }, web: { url: 'https://mcp.example.com/mcp' } },
  permissions: { bash: { deny: ['git push*'] } },
  tenants: { alice: { workspaceRoot: 'ws/alice', readRoots: ['/skills'], tools: ['read_file', 'bash'], mcpServers: ['gh:list_*'], maxSessions: 2, permissions: { bash: 'ask' } } },
  tokens: { [TOKEN]: 'alice' },
  sandbox: 'required',
  idleTimeoutMs: 60_000,
  audit: { file: 'audit.jsonl', full: false },
});

describe('parseServeConfig accepts', () => {
  it('a full config, resolving relative paths against the config directory', () => {
    const config = parseServeConfig(valid(), BASE);
    expect(config.tenants['alice']).toMatchObject({
      workspaceRoot: path.join(BASE, 'ws/alice'),
      readRoots: [path.resolve('/skills')],
      permissions: { bash: 'ask' },
      maxSessions: 2,
    });
    expect(config.audit).toEqual({ file: path.join(BASE, 'audit.jsonl'), full: false });
    expect(config.mcpServers?.['gh']).toEqual({ command: 'node', args: ['gh.mjs'], cwd: BASE });
    expect(config.mcpServers?.['web']).toEqual({ url: 'https://mcp.example.com/mcp' });
    expect(config).toMatchObject({ sandbox: 'required', idleTimeoutMs: 60_000, tokens: { [TOKEN]: 'alice' }, permissions: { bash: { deny: ['git push*'] } } });
  });

  it('an empty config, with the default idle timeout', () => {
    expect(parseServeConfig({}, BASE)).toEqual({ tenants: {}, tokens: {}, idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS, maxBodyBytes: DEFAULT_MAX_BODY_BYTES, approvalTimeoutMs: DEFAULT_APPROVAL_TIMEOUT_MS });
  });
});

type Mutation = (c: Record<string, any>) => void;
const CASES: [string, Mutation, RegExp][] = [
  ['an unknown top-level field', (c) => { c['tennants'] = {}; }, /unknown field 'tennants'/],
  ['an unknown top-level field far from every known one', (c) => { c['frobnicate'] = {}; }, /the config has unknown field 'frobnicate'; known fields: /],
  ['a bad sandbox', (c) => { c['sandbox'] = 'on'; }, /sandbox must be one of 'auto', 'required', 'off', got "on"/],
  ['a zero idle timeout', (c) => { c['idleTimeoutMs'] = 0; }, /idleTimeoutMs must be a positive integer/],
  ['a string idle timeout', (c) => { c['idleTimeoutMs'] = '15m'; }, /idleTimeoutMs must be a positive integer/],
  ['a tiny body bound', (c) => { c['maxBodyBytes'] = 10; }, /maxBodyBytes must be an integer of at least 1024/],
  ['an audit without a file', (c) => { c['audit'] = { full: true }; }, /audit.file must be a non-empty path/],
  ['an unknown audit field', (c) => { c['audit'] = { file: 'a', rotate: true }; }, /audit has unknown field 'rotate'/],
  ['a non-boolean audit flag', (c) => { c['audit'] = { file: 'a', fsync: 'yes' }; }, /audit.fsync must be a boolean/],
  ['a bad host rule', (c) => { c['permissions'] = { bash: 'maybe' }; }, /permissions.bash must be one of/],
  ['an MCP server with both command and url', (c) => { c['mcpServers'].gh.url = 'http://x'; }, /mcpServers.gh must have exactly one of command/],
  ['an MCP server with a bad id', (c) => { c['mcpServers'] = { 'a__b': { command: 'x' } }; }, /mcpServers id 'a__b'/],
  ['a tenant that is not an object', (c) => { c['tenants'].alice = 'all'; }, /tenants.alice must be a JSON object/],
  ['an unknown tenant field', (c) => { c['tenants'].alice.workspace = 'x'; }, /tenants.alice has unknown field 'workspace'/],
  ['an unknown tenant tool', (c) => { c['tenants'].alice.tools = ['read_fiel']; }, /tenants.alice.tools has unknown tool 'read_fiel'/],
  ['a tenant MCP entry naming no configured server', (c) => { c['tenants'].alice.mcpServers = ['jira']; }, /tenants.alice.mcpServers/],
  ['a bad tenant maxSessions', (c) => { c['tenants'].alice.maxSessions = 0; }, /tenants.alice.maxSessions must be a positive integer/],
  ['a host rule for an unknown tool', (c) => { c['permissions'] = { bsh: 'deny' }; }, /permissions has a rule for 'bsh'.*did you mean 'bash'/],
  ['a tenant rule for an unknown tool', (c) => { c['tenants'].alice.permissions = { wirte_file: 'deny' }; }, /tenants.alice.permissions has a rule for 'wirte_file'.*did you mean 'write_file'/],
  ['a rule for a tool of an unconfigured MCP server', (c) => { c['permissions'] = { mcp__jira__create: 'deny' }; }, /MCP server 'jira', which is not configured/],
  ['a bad tenant session rule', (c) => { c['tenants'].alice.permissions = { read_file: { allow: 'src/**' } }; }, /tenants.alice.permissions.read_file.allow must be an array/],
  ['a short token', (c) => { c['tokens'] = { short: 'alice' }; }, /tokens\["shor..."\]: a bearer token must be at least 16 characters/],
  ['a token with whitespace', (c) => { c['tokens'] = { 'has space in the token': 'alice' }; }, /may not contain whitespace/],
  ['a token for an unknown user', (c) => { c['tokens'] = { [TOKEN]: 'mallory' }; }, /names user 'mallory', who has no entry in tenants/],
  ['a token mapped to a non-string', (c) => { c['tokens'] = { [TOKEN]: ['alice'] }; }, /must be a user name/],
  ['a dashboard without the admin token', (c) => { c['dashboard'] = { enabled: true }; }, /dashboard.enabled needs "admin"/],
  ['a dashboard flag that is not a boolean', (c) => { c['dashboard'] = { enabled: 'yes' }; c['admin'] = { token: ADMIN }; }, /dashboard.enabled must be a boolean, got "yes"/],
  ['a dashboard given as a bare true', (c) => { c['dashboard'] = true; c['admin'] = { token: ADMIN }; }, /dashboard must be a JSON object/],
  ['an unknown dashboard field', (c) => { c['dashboard'] = { enabled: true, public: true }; c['admin'] = { token: ADMIN }; }, /dashboard has unknown field 'public'/],
  ['a dashboard audit ring of 0', (c) => { c['dashboard'] = { enabled: true, auditEvents: 0 }; c['admin'] = { token: ADMIN }; }, /dashboard.auditEvents must be a whole number from 1 to 10000/],
  ['a dashboard audit ring past the bound', (c) => { c['dashboard'] = { enabled: true, auditEvents: 1e9 }; c['admin'] = { token: ADMIN }; }, /dashboard.auditEvents must be a whole number from 1 to 10000/],
  // limits and shutdownGraceMs, and a "did you mean" for every field a person types.
  ['an unknown limit', (c) => { c['limits'] = { toolTimeout: 60_000 }; }, /unknown limit 'toolTimeout' in limits; did you mean 'toolTimeoutMs'\?/],
  ['a limit that is a string', (c) => { c['limits'] = { toolTimeoutMs: '10m' }; }, /limits.toolTimeoutMs must be an integer >= 1, got "10m"/],
  ['a limit of 0 where 0 is not unlimited', (c) => { c['limits'] = { toolTimeoutMs: 0 }; }, /limits.toolTimeoutMs must be an integer >= 1, got 0/],
  ['a fractional limit', (c) => { c['limits'] = { maxProcesses: 1.5 }; }, /limits.maxProcesses must be an integer >= 1, got 1.5/],
  ['limits that are not an object', (c) => { c['limits'] = 30_000; }, /limits must be a plain object/],
  ['an unknown tenant limit', (c) => { c['tenants'].alice.limits = { maxProcess: 2 }; }, /unknown limit 'maxProcess' in tenants.alice.limits; did you mean 'maxProcesses'\?/],
  ['a tenant limit that is NaN-like', (c) => { c['tenants'].alice.limits = { toolTimeoutMs: null }; }, /tenants.alice.limits.toolTimeoutMs must be an integer >= 1, got null/],
  ['a negative shutdown grace', (c) => { c['shutdownGraceMs'] = -1; }, /shutdownGraceMs must be a whole number of milliseconds from 0 to 3600000, got -1/],
  ['a shutdown grace past an hour', (c) => { c['shutdownGraceMs'] = 3_600_001; }, /shutdownGraceMs must be a whole number of milliseconds from 0 to 3600000/],
  ['a shutdown grace as a string', (c) => { c['shutdownGraceMs'] = '10s'; }, /shutdownGraceMs must be a whole number of milliseconds from 0 to 3600000, got "10s"/],
  ['a misspelled top-level field', (c) => { c['tennants'] = {}; }, /the config has unknown field 'tennants'; did you mean 'tenants'\?; known fields: /],
  ['a misspelled shutdown grace', (c) => { c['shutdownGrace'] = 5; }, /unknown field 'shutdownGrace'; did you mean 'shutdownGraceMs'\?/],
  ['a tenant field cut short', (c) => { c['tenants'].alice.workspace = 'x'; }, /tenants.alice has unknown field 'workspace'; did you mean 'workspaceRoot'\?/],
  ['a misspelled tenant field', (c) => { c['tenants'].alice.limts = {}; }, /tenants.alice has unknown field 'limts'; did you mean 'limits'\?/],
  ['a misspelled tenant tool', (c) => { c['tenants'].alice.tools = ['read_fiel']; }, /tenants.alice.tools has unknown tool 'read_fiel'; did you mean 'read_file'\?/],
  ['a misspelled audit field', (c) => { c['audit'] = { file: 'a', ful: true }; }, /audit has unknown field 'ful'; did you mean 'full'\?/],
  ['a misspelled dashboard field', (c) => { c['dashboard'] = { enable: true }; c['admin'] = { token: ADMIN }; }, /dashboard has unknown field 'enable'; did you mean 'enabled'\?/],
  ['a misspelled MCP server field', (c) => { c['mcpServers'].gh.arg = []; }, /mcpServers.gh.arg is not a known field; did you mean 'args'\?/],
  ['a misspelled tokenBounds field', (c) => { c['tokenBounds'] = { limit: {} }; }, /unknown tokenBounds option 'limit'; did you mean 'limits'\?/],
  ['a token naming a misspelled user', (c) => { c['tokens'] = { [TOKEN]: 'alcie' }; }, /names user 'alcie', who has no entry in tenants; did you mean 'alice'\?/],
];

describe('parseServeConfig: limits and the shutdown grace', () => {
  it('takes limits for every session and per tenant, and a shutdown grace of 0 (no wait)', () => {
    const raw = valid() as Record<string, any>;
    raw['limits'] = { toolTimeoutMs: 900_000, writeQuotaBytes: 0 };
    raw['tenants'].alice.limits = { toolTimeoutMs: 20_000, maxProcesses: 2 };
    raw['shutdownGraceMs'] = 0;
    const config = parseServeConfig(raw, BASE);
    expect(config.limits).toEqual({ toolTimeoutMs: 900_000, writeQuotaBytes: 0 });
    expect(config.tenants['alice']?.limits).toEqual({ toolTimeoutMs: 20_000, maxProcesses: 2 });
    expect(config.shutdownGraceMs).toBe(0);
  });

  it('leaves both unset when the config does not give them', () => {
    const config = parseServeConfig(valid(), BASE);
    expect(config).not.toHaveProperty('limits');
    expect(config).not.toHaveProperty('shutdownGraceMs');
    expect(config.tenants['alice']).not.toHaveProperty('limits');
  });
});

describe('parseServeConfig: user names that are properties of every object', () => {
  it.each(['__proto__', 'constructor', 'toString'])("a tenant named %s is a tenant, never the tenants' prototype", (user) => {
    const config = parseServeConfig(JSON.parse(`{ "tenants": { "${user}": { "workspaceRoot": "ws" } }, "tokens": { "${TOKEN}": "${user}" } }`), BASE);
    expect(Object.getPrototypeOf(config.tenants)).toBe(Object.prototype);
    expect(Object.hasOwn(config.tenants, user)).toBe(true);
    expect(config.tenants[user]).toEqual({ workspaceRoot: path.join(BASE, 'ws') });
    expect(Object.keys(config.tenants)).toEqual([user]);
  });
});

describe('parseServeConfig: the dashboard section', () => {
  it('is off unless given, and takes the default ring size', () => {
    expect(parseServeConfig(valid(), BASE).dashboard).toBeUndefined();
    expect(parseServeConfig({ ...valid(), admin: { token: ADMIN }, dashboard: { enabled: true } }, BASE).dashboard).toEqual({ enabled: true, auditEvents: DEFAULT_DASHBOARD_AUDIT_EVENTS });
  });

  it('may be written disabled without an admin token (the near miss of the refusal)', () => {
    expect(parseServeConfig({ ...valid(), dashboard: { enabled: false, auditEvents: 50 } }, BASE).dashboard).toEqual({ enabled: false, auditEvents: 50 });
  });
});

describe('parseServeConfig refuses, naming the field', () => {
  it.each(CASES)('%s', (_name, mutate, message) => {
    const config = valid();
    mutate(config);
    expect(() => parseServeConfig(config, BASE)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(message) }));
  });
});

describe('parseServeConfig refuses a config that is not an object', () => {
  it.each([[[]], [null], ['{}'], [42]])('%j', (value) => {
    expect(() => parseServeConfig(value, BASE)).toThrow(/the config must be a JSON object/);
  });
});

describe('assertHttpServable', () => {
  it.each([
    ['no tokens', { tenants: { alice: { workspaceRoot: '/w' } } }, /tokens must map at least one bearer token/],
    ['a token user without a workspace', { tenants: { alice: {} }, tokens: { [TOKEN]: 'alice' } }, /tenants.alice.workspaceRoot is required to serve over HTTP/],
  ])('refuses %s', (_name, raw, message) => {
    expect(() => assertHttpServable(parseServeConfig(raw, BASE))).toThrow(message);
  });

  it('accepts tokens whose users all have a workspace', () => {
    expect(() => assertHttpServable(parseServeConfig(valid(), BASE))).not.toThrow();
  });
});
