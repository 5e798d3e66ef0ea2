import { describe, expect, it } from 'vitest';
import { isLauncherEvent, isLauncherRequest } from '../../src/protocol/launcher.js';

const SPAWN = { type: 'spawn', id: 1, file: 'bash', args: ['-c', 'true'], cwd: '/tmp', env: { PATH: '/bin' }, stdin: 'ignore', stopThroughDescendants: false };

describe('isLauncherRequest', () => {
  it.each<[string, unknown, boolean]>([
    ['a spawn', SPAWN, true],
    ['a spawn with a non-string env value', { ...SPAWN, env: { PATH: 1 } }, false],
    ['a spawn with an inherit stdin', { ...SPAWN, stdin: 'inherit' }, false],
    ['a spawn without args', { ...SPAWN, args: undefined }, false],
    ['a spawn handing its stdio over', { ...SPAWN, stdin: 'pipe', handOverStdio: true }, true],
    ['a spawn with a non-boolean handOverStdio', { ...SPAWN, handOverStdio: 'yes' }, false],
    ['stdin bytes', { type: 'stdin', id: 1, seq: 0, data: Buffer.from('x') }, true],
    ['stdin as a string', { type: 'stdin', id: 1, seq: 0, data: 'x' }, false],
    ['stdin-end', { type: 'stdin-end', id: 1 }, true],
    ['a signal', { type: 'signal', id: 1, signal: 'SIGTERM' }, true],
    ['a signal that is not a signal name', { type: 'signal', id: 1, signal: 'rm -rf' }, false],
    ['a negative id', { type: 'stdin-end', id: -1 }, false],
    ['an unknown type', { type: 'eval', id: 1 }, false],
    ['null', null, false],
  ])('%s: %s', (_name, value, expected) => {
    expect(isLauncherRequest(value)).toBe(expected);
  });
});

describe('isLauncherEvent', () => {
  it.each<[string, unknown, boolean]>([
    ['ready', { type: 'ready' }, true],
    ['spawned', { type: 'spawned', id: 1, pid: 42 }, true],
    ['spawned without a pid', { type: 'spawned', id: 1 }, false],
    ['a stdout handle', { type: 'stdio-handle', id: 1, stream: 'stdout' }, true],
    ['a stderr handle (never handed over)', { type: 'stdio-handle', id: 1, stream: 'stderr' }, false],
    ['spawn-error', { type: 'spawn-error', id: 1, message: 'ENOENT' }, true],
    ['output', { type: 'output', id: 1, stream: 'stderr', data: new Uint8Array([1]) }, true],
    ['output on another stream', { type: 'output', id: 1, stream: 'stdin', data: new Uint8Array([1]) }, false],
    ['a failed stdin-ack', { type: 'stdin-ack', id: 1, seq: 3, error: 'EPIPE' }, true],
    ['exit by signal', { type: 'exit', id: 1, exitCode: null, signal: 'SIGKILL' }, true],
    ['exit with a fractional code', { type: 'exit', id: 1, exitCode: 1.5, signal: null }, false],
    ['closed', { type: 'closed', id: 1 }, true],
    ['closed without an id', { type: 'closed' }, false],
  ])('%s', (_name, value, expected) => {
    expect(isLauncherEvent(value)).toBe(expected);
  });
});
