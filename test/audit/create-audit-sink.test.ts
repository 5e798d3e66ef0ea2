import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuditSink } from '../../runtime/audit/index.js';
import type { AuditOption } from '../../runtime/audit/index.js';
import type { AuditEvent } from '../../src/audit/index.js';
import { ToolwardenError } from '../../src/errors.js';

const EVENT: AuditEvent = {
  time: '2025-01-01T00:00:00.000Z',
  sessionId: 's1',
  user: 'alice',
  tool: 'write_file',
  args: { path: 'a.txt', content: 'secret text' },
  decision: 'allow',
  rule: "session rule write_file: 'allow'",
  durationMs: 4,
  result: 'wrote 11 bytes\nmore',
};
const REDACTED = { ...EVENT, args: { path: 'a.txt', content: '<redacted: 11 chars>' }, result: 'wrote 11 bytes <redacted: 5 chars>' };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolwarden-audit-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe('createAuditSink targets', () => {
  it.each([
    ['a bare callback redacts', (seen: unknown[]) => (e: AuditEvent) => void seen.push(e), REDACTED],
    ['{ callback } redacts by default', (seen: unknown[]) => ({ callback: (e: AuditEvent) => void seen.push(e) }), REDACTED],
    ['{ callback, full } logs in full', (seen: unknown[]) => ({ callback: (e: AuditEvent) => void seen.push(e), full: true }), EVENT],
    ['a logger gets info(event, "tool call")', (seen: unknown[]) => ({ logger: { info: (obj: object, msg?: string) => void seen.push({ ...obj, msg }) } }), { ...REDACTED, msg: 'tool call' }],
    ['a pino-style logger passed as it is', (seen: unknown[]) => ({ level: 'info', info: (obj: object, msg?: string) => void seen.push({ ...obj, msg }) }), { ...REDACTED, msg: 'tool call' }],
  ] as const)('%s', async (_name, build, expected) => {
    const seen: unknown[] = [];
    const sink = createAuditSink(build(seen) as AuditOption);
    sink.emit(EVENT);
    await sink.close();
    expect(seen).toEqual([expected]);
  });

  it('no option: emit and close do nothing', async () => {
    const sink = createAuditSink(undefined);
    expect(() => sink.emit(EVENT)).not.toThrow();
    await expect(sink.close()).resolves.toBeUndefined();
  });
});

describe('JSON-lines file', () => {
  it('takes a bare path as the file', async () => {
    const file = join(dir, 'bare.jsonl');
    const sink = createAuditSink(file);
    sink.emit(EVENT);
    await sink.close();
    expect(JSON.parse(readFileSync(file, 'utf8').trim())).toEqual(REDACTED);
  });

  it.each([true, false])('appends one redacted JSON object per line (fsync %s)', async (fsync) => {
    const file = join(dir, 'audit.jsonl');
    writeFileSync(file, '{"earlier":true}\n');
    const sink = createAuditSink({ file, fsync });
    sink.emit(EVENT);
    // Written before close: a crash after the call keeps the event.
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(3);
    sink.emit({ ...EVENT, decision: 'deny', code: 'POLICY_DENIED', args: { command: 'git push\necho x' } });
    await sink.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { earlier: true },
      REDACTED,
      { ...REDACTED, decision: 'deny', code: 'POLICY_DENIED', args: { command: 'git push\necho x' } },
    ]);
  });

  it('creates the file readable by its owner only', async () => {
    const file = join(dir, 'new.jsonl');
    const sink = createAuditSink({ file });
    await sink.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('logs in full when asked', async () => {
    const file = join(dir, 'full.jsonl');
    const sink = createAuditSink({ file, full: true });
    sink.emit(EVENT);
    await sink.close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(EVENT);
  });

  it('fails at creation when the file cannot be opened', () => {
    expect(() => createAuditSink({ file: join(dir, 'missing', 'audit.jsonl') })).toThrow(/audit\.file '.*missing\/audit\.jsonl' cannot be opened for appending/);
  });

  it('drops events after close with one warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const file = join(dir, 'closed.jsonl');
    const sink = createAuditSink({ file });
    await sink.close();
    sink.emit(EVENT);
    sink.emit(EVENT);
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('failures never break the call', () => {
  it.each([
    ['a throwing callback', { callback: () => { throw new Error('boom'); } }],
    ['a throwing logger', { logger: { info: () => { throw new Error('boom'); } } }],
    ['a callback throwing a non-error', () => { throw 'boom'; }],
  ] as const)('%s is reported once as a warning', (_name, option) => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const sink = createAuditSink(option as AuditOption);
    expect(() => {
      sink.emit(EVENT);
      sink.emit(EVENT);
    }).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/toolwarden audit sink failed, events may be lost: boom/);
  });
});

describe('invalid options', () => {
  it.each([
    ['an empty path', '', /audit file path must not be empty/],
    ['an empty object', {}, /audit must be a callback, \{ callback \}, \{ file: string \} or \{ logger: \{ info\(\) \} \}/],
    ['an empty file name', { file: '' }, /audit must be a callback/],
    ['a logger without info', { logger: {} }, /audit must be a callback/],
    ['a non-boolean full', { file: 'x', full: 'yes' }, /audit\.full must be a boolean/],
  ])('rejects %s', (_name, option, message) => {
    let thrown: unknown;
    try {
      createAuditSink(option as AuditOption);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolwardenError);
    expect((thrown as ToolwardenError).code).toBe('INVALID_OPTIONS');
    expect((thrown as ToolwardenError).message).toMatch(message);
  });
});
