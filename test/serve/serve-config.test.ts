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
];

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
