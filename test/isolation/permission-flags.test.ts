import { describe, expect, it } from 'vitest';
import { permissionFlag, permissionFlags } from '../../runtime/isolation/permission-flags.js';

describe('permissionFlag', () => {
  it.each([
    ['20.20.2', '--experimental-permission'],
    ['21.7.0', '--experimental-permission'],
    ['22.12.0', '--experimental-permission'],
    ['22.13.0', '--permission'],
    ['23.4.0', '--experimental-permission'],
    ['23.5.0', '--permission'],
    ['24.0.0', '--permission'],
    ['25.1.0', '--permission'],
  ])('Node %s takes %s', (version, flag) => {
    expect(permissionFlag(version)).toBe(flag);
  });
});

describe('permissionFlags', () => {
  it('grants one --allow-fs-read per distinct path and nothing else', () => {
    expect(permissionFlags('20.20.2', ['/opt/tw/dist', '/opt/tw/package.json', '/opt/tw/dist'])).toEqual([
      '--experimental-permission',
      '--allow-fs-read=/opt/tw/dist',
      '--allow-fs-read=/opt/tw/package.json',
    ]);
  });

  it.each([
    ['a comma, read as a list separator on old Node', '/opt/tw,/etc'],
    ['a star, read as a wildcard', '/opt/*'],
    ['a relative path', 'dist'],
  ])('refuses a path holding %s', (_rule, readPath) => {
    expect(() => permissionFlags('22.13.0', ['/opt/tw/dist', readPath])).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(readPath) }));
  });
});
