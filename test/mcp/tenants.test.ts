import { describe, expect, it } from 'vitest';
import { bindSessionToTenant, resolveTenant, validateTenants } from '../../src/tenants/index.js';
import type { TenantConfig } from '../../src/tenants/index.js';
import { errorOf } from './helpers.js';

const TENANTS: Record<string, TenantConfig> = {
  alice: { mcpServers: ['alpha', 'gh:list_*'], tools: ['read_file', 'grep'], secrets: { token: 'tA' } },
  bob: { mcpServers: ['gh'] },
  carol: {},
};

describe('resolveTenant', () => {
  it.each([
    ['a known user', TENANTS, 'alice', TENANTS['alice']],
    ['no tenants configured', undefined, 'alice', undefined],
    ['no user', TENANTS, undefined, undefined],
    ['a function', (user: string) => (user === 'dave' ? { tools: ['x'] } : undefined), 'dave', { tools: ['x'] }],
  ])('resolves %s', (_name, tenants, user, expected) => {
    expect(resolveTenant(tenants, user)).toEqual(expected);
  });

  it.each([
    ['an unknown user', TENANTS, 'mallory'],
    ['an inherited property name', TENANTS, 'toString'],
    ['a function answering undefined', () => undefined, 'alice'],
  ])('refuses %s with ESCALATION', (_name, tenants, user) => {
    const error = errorOf(() => resolveTenant(tenants, user));
    expect(error?.code).toBe('ESCALATION');
    expect(error?.message).toContain(`unknown user '${user}'`);
  });
});

describe('bindSessionToTenant', () => {
  it.each([
    ['defaults to the tenant allowance', {}, 'alice', { tools: ['read_file', 'grep'], mcpServers: ['alpha', 'gh:list_*'] }],
    ['narrows to a subset', { tools: ['grep'], mcpServers: ['gh:list_a', 'alpha:echo'] }, 'alice', { tools: ['grep'], mcpServers: ['gh:list_a', 'alpha:echo'] }],
    ['an empty request stays empty', { tools: [], mcpServers: [] }, 'alice', { tools: [], mcpServers: [] }],
    ['no tool list on the tenant leaves tools as asked', { tools: ['bash'] }, 'bob', { tools: ['bash'], mcpServers: ['gh'] }],
    ['no tool list anywhere stays undefined', {}, 'bob', { tools: undefined, mcpServers: ['gh'] }],
    ['a tenant without MCP entries gets none', {}, 'carol', { tools: undefined, mcpServers: [] }],
  ])('%s', (_name, req, user, expected) => {
    expect(bindSessionToTenant(req, resolveTenant(TENANTS, user), user)).toEqual(expected);
  });

  it.each([
    ['a whole server where only a pattern is allowed', { mcpServers: ['gh'] }, 'alice', /'gh' asks for more than the tenant of user 'alice' allows \(alpha, gh:list_\*\)/],
    ['a tool outside the pattern', { mcpServers: ['gh:create_issue'] }, 'alice', /'gh:create_issue'/],
    ['another server', { mcpServers: ['alpha'] }, 'bob', /'alpha' asks for more than the tenant of user 'bob'/],
    ['any MCP entry when the tenant has none', { mcpServers: ['gh'] }, 'carol', /allows \(no MCP entries\)/],
    ['a tool beyond the tenant', { tools: ['read_file', 'bash'] }, 'alice', /user 'alice' asked for tools bash beyond/],
  ])('refuses %s with ESCALATION', (_name, req, user, message) => {
    const error = errorOf(() => bindSessionToTenant(req, resolveTenant(TENANTS, user), user));
    expect(error?.code).toBe('ESCALATION');
    expect(error?.message).toMatch(message);
  });

  it('lets a session without a user ask for any server, as asked', () => {
    expect(bindSessionToTenant({ mcpServers: ['gh', 'alpha'] }, resolveTenant(TENANTS, undefined), undefined)).toEqual({ tools: undefined, mcpServers: ['gh', 'alpha'] });
    expect(bindSessionToTenant({}, undefined, undefined)).toEqual({ tools: undefined, mcpServers: [] });
  });

  it('returns copies, so a session cannot alter the tenant', () => {
    const bound = bindSessionToTenant({}, TENANTS['alice'], 'alice');
    bound.mcpServers.push('gh');
    expect(TENANTS['alice']?.mcpServers).toEqual(['alpha', 'gh:list_*']);
  });
});

describe('validateTenants', () => {
  it('accepts tenants naming configured servers, and functions', () => {
    expect(validateTenants(TENANTS, ['alpha', 'gh'])).toBe(TENANTS);
    const fn = (): undefined => undefined;
    expect(validateTenants(fn, [])).toBe(fn);
  });

  it.each([
    ['an unknown server', { a: { mcpServers: ['nope'] } }, /tenants\.a\.mcpServers: .*unknown MCP server 'nope'/],
    ['a non-array list', { a: { tools: 'read_file' } }, /tenants\.a\.tools must be an array/],
    ['a non-string secret', { a: { secrets: { token: 1 } } }, /tenants\.a\.secrets\.token must be a string/],
    ['a zero session quota', { a: { maxSessions: 0 } }, /tenants\.a\.maxSessions must be a positive integer/],
    ['a misspelled field', { a: { workspace: '/ws' } }, /tenants\.a\.workspace is not a tenant field/],
    ['a non-object tenant', { a: 'x' }, /tenants\.a must be an object/],
    ['a non-object option', 'alice', /tenants must be an object/],
  ])('refuses %s with INVALID_OPTIONS', (_name, value, message) => {
    const error = errorOf(() => validateTenants(value, ['alpha', 'gh']));
    expect(error?.code).toBe('INVALID_OPTIONS');
    expect(error?.message).toMatch(message);
  });
});
