import { describe, expect, it } from 'vitest';
import { buildChildEnv } from '../../src/child-env.js';

const HOST = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/me',
  LANG: 'C.UTF-8',
  TERM: 'xterm',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  GITHUB_TOKEN: 'gh-token',
  NODE_ENV: 'test',
  NODE_OPTIONS: '--inspect',
  npm_config_cache: '/cache',
  npm_config_registry: 'https://r',
  Path: 'C:\\Windows',
  UNSET: undefined,
};

describe('buildChildEnv', () => {
  it.each<[string, Parameters<typeof buildChildEnv>[1], { HOME?: string } | undefined, Record<string, string>]>([
    ['passes only the base variables by default', undefined, undefined, { PATH: '/usr/bin:/bin', HOME: '/home/me', LANG: 'C.UTF-8', TERM: 'xterm', Path: 'C:\\Windows' }],
    ['adds allowlisted names', ['NODE_ENV', 'MISSING'], undefined, { NODE_ENV: 'test' }],
    ['adds PREFIX_* matches, and only those', ['npm_config_*'], undefined, { npm_config_cache: '/cache', npm_config_registry: 'https://r' }],
    ['sets an explicit map as given', { NODE_ENV: 'production', EXTRA: 'x' }, undefined, { NODE_ENV: 'production', EXTRA: 'x' }],
    ['overrides HOME', undefined, { HOME: '/ws' }, { HOME: '/ws' }],
  ])('%s', (_name, allow, overrides, expected) => {
    const env = buildChildEnv(HOST, allow, overrides);
    expect(env).toMatchObject(expected);
    expect(Object.values(env)).not.toContain('aws-secret');
    expect(Object.values(env)).not.toContain('gh-token');
    if (allow === undefined) expect(Object.keys(env).sort()).toEqual(['HOME', 'LANG', 'PATH', 'Path', 'TERM']);
    if (Array.isArray(allow)) expect(env['NODE_OPTIONS']).toBeUndefined();
  });

  it.each([
    ['a bare *', ['*']],
    ['a * in the middle', ['AWS_*_KEY']],
    ['an empty name', ['']],
    ['a name with =', ['A=B']],
    ['a map key with =', { 'A=B': 'x' }],
    ['a map value with NUL', { A: 'x\0y' }],
  ])('refuses %s with INVALID_OPTIONS', (_name, allow) => {
    expect(() => buildChildEnv(HOST, allow as string[] | Record<string, string>)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
