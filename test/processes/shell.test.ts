import { describe, expect, it } from 'vitest';
import { parseChcpOutput } from '../../runtime/processes/code-page.js';
import { resolveShell, type ShellName } from '../../runtime/processes/shell.js';

describe('resolveShell', () => {
  it.each([
    ['linux', undefined, 'bash', ['--noprofile', '--norc', '-c', 'echo hi']],
    ['darwin', 'sh', 'sh', ['-c', 'echo hi']],
    ['win32', undefined, 'cmd.exe', ['/d', '/s', '/c', '"echo hi"']],
    ['win32', 'powershell', 'powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', 'echo hi']],
  ] as const)('%s with preference %s runs %s', (platform, preference, file, args) => {
    const shell = resolveShell(platform, preference as ShellName | undefined, '/usr/bin:/bin');
    expect(shell.file).toBe(file);
    expect(shell.args('echo hi')).toEqual(args);
  });

  it('falls back to sh when bash is not on PATH', () => {
    expect(resolveShell('linux', undefined, '/nonexistent-dir').file).toBe('sh');
  });

  it.each([
    ['linux', 'cmd'],
    ['linux', 'powershell'],
    ['darwin', 'bash', '/nonexistent-dir'],
  ] as const)('refuses %s with shell %s', (platform, preference, pathEnv: string = '/usr/bin:/bin') => {
    expect(() => resolveShell(platform, preference, pathEnv)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(preference) }));
  });
});

describe('parseChcpOutput', () => {
  it.each([
    ['Active code page: 936\r\n', 936],
    ['活动代码页: 65001', 65001],
    ['Page de codes active : 850.', 850],
    ['garbage', undefined],
  ])('%j -> %s', (output, expected) => {
    expect(parseChcpOutput(output)).toBe(expected);
  });
});
