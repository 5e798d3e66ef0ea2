import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBrokerResponse, parseBrokerRequest } from '../../src/protocol/broker.js';

const base = { v: 1, seq: 1, callId: 'c-1' };

describe('parseBrokerRequest: the one check of the broker protocol', () => {
  it.each([
    ['readFile', { type: 'readFile', path: 'a.txt' }],
    ['listDir without a path', { type: 'listDir' }],
    ['glob with a path', { type: 'glob', pattern: '*.ts', path: 'src' }],
    ['grep', { type: 'grep', request: { pattern: 'x', ignoreCase: true, maxResults: 3 } }],
    ['applyChanges', { type: 'applyChanges', steps: [{ kind: 'write', path: 'a', content: 'x' }, { kind: 'delete', path: 'b' }] }],
    ['ctxExec', { type: 'ctxExec', args: { command: 'ls', timeoutMs: 5 } }],
    ['ctxFs', { type: 'ctxFs', op: 'grep', args: { pattern: 'x' } }],
    ['ctxMcp', { type: 'ctxMcp', tool: 'mcp__a__b', args: { nested: [{ a: null }] } }],
    ['log with data', { type: 'log', level: 'warn', message: 'm', data: [1, 'two', { three: 3 }] }],
  ])('accepts %s', (_name, fields) => {
    expect(parseBrokerRequest({ ...base, ...fields })).toMatchObject({ ok: true });
  });

  it.each([
    ['a string', 'readFile', /plain object/],
    ['an array', [base], /plain object/],
    ['a class instance', Object.assign(new (class X {})(), base, { type: 'readFile', path: 'a' }), /plain object/],
    ['no version', { seq: 1, callId: 'c', type: 'readFile', path: 'a' }, /version/],
    ['version 2', { ...base, v: 2, type: 'readFile', path: 'a' }, /version/],
    ['an unknown type', { ...base, type: 'readFileUnchecked', path: 'a' }, /unknown broker request type/],
    ['bash (run on the main thread, not a broker request)', { ...base, type: 'bash', args: { command: 'ls' } }, /unknown broker request type/],
    ['an inherited name as type', { ...base, type: 'toString' }, /unknown broker request type/],
    ['__proto__ as type', { ...base, type: '__proto__' }, /unknown broker request type/],
    ['no seq', { v: 1, callId: 'c', type: 'readFile', path: 'a' }, /seq/],
    ['a fractional seq', { ...base, seq: 1.5, type: 'readFile', path: 'a' }, /seq/],
    ['no callId', { v: 1, seq: 1, type: 'readFile', path: 'a' }, /callId/],
    ['an empty callId', { ...base, callId: '', type: 'readFile', path: 'a' }, /callId/],
    ['a huge callId', { ...base, callId: 'x'.repeat(1000), type: 'readFile', path: 'a' }, /callId/],
    ['a missing path', { ...base, type: 'readFile' }, /path is required/],
    ['a numeric path', { ...base, type: 'readFile', path: 1 }, /path must be a string/],
    ['an extra field', { ...base, type: 'readFile', path: 'a', root: '/' }, /unexpected field 'root'/],
    ['an own __proto__ field', JSON.parse('{"v":1,"seq":1,"callId":"c","type":"readFile","path":"a","__proto__":{"x":1}}'), /unexpected field '__proto__'/],
    ['a prototype key in args', { ...base, type: 'ctxExec', args: JSON.parse('{"command":"ls","__proto__":{"polluted":true}}') }, /prototype key/],
    ['a constructor key deep in args', { ...base, type: 'ctxMcp', tool: 't', args: { a: [{ constructor: 1 }] } }, /prototype key/],
    ['a Date in args (not plain data)', { ...base, type: 'ctxExec', args: { command: new Date() } }, /not plain data/],
    ['args nested too deep', { ...base, type: 'ctxExec', args: JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) }, /deeper/],
    ['an unknown ctx.fs op', { ...base, type: 'ctxFs', op: 'rm', args: {} }, /unknown ctx.fs operation/],
    ['a bad log level', { ...base, type: 'log', level: 'debug', message: 'm' }, /info, warn or error/],
    ['a step of another kind', { ...base, type: 'applyChanges', steps: [{ kind: 'chmod', path: 'a' }] }, /write or delete/],
    ['a step with an extra field', { ...base, type: 'applyChanges', steps: [{ kind: 'write', path: 'a', mode: 511 }] }, /unexpected field 'mode'/],
    ['grep with an extra field', { ...base, type: 'grep', request: { pattern: 'x', root: '/' } }, /unexpected field 'root'/],
  ])('refuses %s, saying why', (_name, data, reason) => {
    const parsed = parseBrokerRequest(data);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('keeps what it could read of a refused message, for the reply and the audit', () => {
    expect(parseBrokerRequest({ ...base, type: 'readFile', path: 1 })).toMatchObject({ ok: false, seq: 1, callId: 'c-1', type: 'readFile' });
  });

  it('never throws, and accepts nothing but the known types', () => {
    const known = new Set(['readFile', 'readFileStrict', 'writeFile', 'listDir', 'glob', 'grep', 'applyChanges', 'ctxFs', 'ctxExec', 'ctxFetch', 'ctxMcp', 'log']);
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ v: fc.constant(1), seq: fc.nat(), callId: fc.string({ minLength: 1 }), type: fc.string(), path: fc.anything() })), (data) => {
        const parsed = parseBrokerRequest(data);
        if (parsed.ok) expect(known.has(parsed.request.type)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('tells replies apart', () => {
    expect(isBrokerResponse({ v: 1, type: 'reply', seq: 3, reply: null })).toBe(true);
    expect(isBrokerResponse({ v: 1, type: 'reply', reply: null })).toBe(false);
    expect(isBrokerResponse({ id: 'x', type: 'RAW', value: 1 })).toBe(false);
  });
});
