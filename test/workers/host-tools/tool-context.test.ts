import { describe, expect, it } from 'vitest';
import { createCallContext } from '../../../workers/host-tools/tool-context.js';
import { okResult } from '../../../src/tool-result.js';
import type { BrokerApi } from '../../../src/protocol.js';

// A broker that records what the ctx asked for; only the requests these tests make are answered.
function recordingBroker(asked: string[]): BrokerApi {
  return {
    ctxExec: async (args: Record<string, unknown>) => {
      asked.push(`exec ${String(args['command'])}`);
      return okResult('ran', { exitCode: 0, stdout: 'ok\n', stderr: '' });
    },
    ctxFs: async (op: string, args: Record<string, unknown>) => {
      asked.push(`fs ${op} ${String(args['path'])}`);
      return { ok: true, value: { path: String(args['path']), text: 'hello\n', binary: false, size: 6 } };
    },
    log: async (level: string, message: string) => {
      asked.push(`log ${level} ${message}`);
    },
  } as unknown as BrokerApi;
}

describe('the ctx of a host tool call', () => {
  it('is frozen: a tool cannot swap a method or the session for the next caller of the object', () => {
    const ctx = createCallContext(recordingBroker([]), Object.freeze({ id: 's1', workspaceRoot: '/ws' }) as never, () => new AbortController().signal);
    expect(Object.isFrozen(ctx)).toBe(true);
    expect(() => Object.assign(ctx, { exec: () => undefined })).toThrow(TypeError);
    expect(() => Object.defineProperty(ctx, 'session', { value: {} })).toThrow(TypeError);
  });

  it('serves methods taken off the object, each through the broker', async () => {
    const asked: string[] = [];
    const ctx = createCallContext(recordingBroker(asked), Object.freeze({ id: 's1', workspaceRoot: '/ws' }) as never, () => new AbortController().signal);
    const { exec, log, fs } = ctx;
    expect(await exec('ls')).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    log('hi');
    expect(await fs.readFile('a.txt')).toBe('hello\n');
    expect(asked).toEqual(['exec ls', 'log info hi', 'fs readFile a.txt']);
  });

  it('makes fs and mcp once, when first read, and the signal only when a tool reads it', () => {
    let signals = 0;
    const ctx = createCallContext(recordingBroker([]), Object.freeze({ id: 's1', workspaceRoot: '/ws' }) as never, () => {
      signals += 1;
      return new AbortController().signal;
    });
    expect(signals).toBe(0);
    expect(ctx.fs).toBe(ctx.fs);
    expect(ctx.mcp).toBe(ctx.mcp);
    expect(Object.isFrozen(ctx.fs) && Object.isFrozen(ctx.mcp)).toBe(true);
    void ctx.signal;
    expect(signals).toBe(1);
  });
});
