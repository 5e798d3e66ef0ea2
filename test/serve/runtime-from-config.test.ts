import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeConfig } from '../../src/serve/serve-config.js';
import { runtimeOptionsFrom, userSessionOptions } from '../../runtime/serve/runtime-from-config.js';

const BASE = path.resolve('/etc/toolwarden');
const config = parseServeConfig(
  {
    limits: { toolTimeoutMs: 900_000, maxProcesses: 4 },
    tenants: {
      alice: { workspaceRoot: 'a', limits: { toolTimeoutMs: 20_000 }, permissions: { bash: 'ask' } },
      bob: { workspaceRoot: 'b' },
    },
  },
  BASE,
);

describe('userSessionOptions: what a served session takes from the config', () => {
  it.each([
    ["a tenant's limits over the config's, key by key, and its rules", 'alice', { user: 'alice', permissions: { bash: 'ask' }, limits: { toolTimeoutMs: 20_000, maxProcesses: 4 } }],
    ["the config's limits for a tenant without its own", 'bob', { user: 'bob', limits: { toolTimeoutMs: 900_000, maxProcesses: 4 } }],
    ["the config's limits for a stdio session of no user", undefined, { limits: { toolTimeoutMs: 900_000, maxProcesses: 4 } }],
    ['nothing of a tenant for a name every object has', 'constructor', { user: 'constructor', limits: { toolTimeoutMs: 900_000, maxProcesses: 4 } }],
  ])('%s', (_name, user, expected) => {
    expect(userSessionOptions(config, user)).toEqual(expected);
  });

  it('adds no limits when the config sets none', () => {
    expect(userSessionOptions(parseServeConfig({ tenants: { bob: {} } }, BASE), 'bob')).toEqual({ user: 'bob' });
    expect(userSessionOptions(undefined, undefined)).toEqual({});
  });
});

describe('runtimeOptionsFrom: the tenants the runtime binds', () => {
  it('carry neither the session rules nor the limits, which are each session\'s', () => {
    expect(runtimeOptionsFrom(config).tenants).toEqual({ alice: { workspaceRoot: path.join(BASE, 'a') }, bob: { workspaceRoot: path.join(BASE, 'b') } });
  });
});
