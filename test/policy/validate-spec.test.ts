import { describe, expect, it } from 'vitest';
import { ToolwardenError } from '../../src/errors.js';
import { validatePermissionSpec } from '../../src/policy/index.js';

describe('validatePermissionSpec', () => {
  it.each([
    ['not an object', 'deny', /^perm must be an object mapping tool names/],
    ['null', null, /^perm must be an object.*got null/],
    ['an array', [], /^perm must be an object.*got an array/],
    ['a class instance', new Map(), /^perm must be an object/],
    ['an empty tool name', { '': 'allow' }, /^perm has an empty or NUL-containing tool name ""/],
    ['an unknown shorthand', { bash: 'yes' }, /^perm\.bash must be one of 'allow', 'ask', 'deny' or \{ allow\?, ask\?, deny\?, default\? \}, got "yes"/],
    ['a number rule', { bash: 1 }, /^perm\.bash must be one of .*got number 1/],
    ['an unknown rule key', { bash: { allw: ['ls'] } }, /^perm\.bash\.allw is not a rule key; use allow, ask, deny or default/],
    ['a pattern list that is a string', { bash: { deny: 'rm *' } }, /^perm\.bash\.deny must be an array of pattern strings, got "rm \*"/],
    ['a non-string pattern', { read_file: { allow: ['src/**', 3] } }, /^perm\.read_file\.allow\[1\] must be a non-empty pattern string/],
    ['an empty pattern', { bash: { ask: [' '] } }, /^perm\.bash\.ask\[0\] must be a non-empty pattern string/],
    ['a NUL in a pattern', { bash: { ask: ['a\0b'] } }, /^perm\.bash\.ask\[0\] must be a non-empty pattern string without NUL bytes/],
    ['a bad default', { '*': { default: 'maybe' } }, /^perm\.\*\.default must be one of 'allow', 'ask', 'deny', got "maybe"/],
  ])('rejects %s', (_name, spec, message) => {
    let thrown: unknown;
    try {
      validatePermissionSpec(spec, 'perm');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolwardenError);
    expect((thrown as ToolwardenError).code).toBe('INVALID_OPTIONS');
    expect((thrown as ToolwardenError).message).toMatch(message);
  });

  it.each([
    ['empty', {}],
    ['shorthands', { bash: 'ask', '*': 'deny', mcp__gh__x: 'allow' }],
    ['full rules', { bash: { allow: ['npm test'], ask: [], deny: ['git push*'], default: 'ask' }, read_file: { deny: ['secrets/**'] } }],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { bash: 'deny' })],
  ])('accepts %s', (_name, spec) => {
    expect(validatePermissionSpec(spec, 'perm')).toEqual({ ...spec });
  });

  it('returns a copy the caller cannot change afterwards', () => {
    const deny = ['rm *'];
    const spec = { bash: { deny } };
    const checked = validatePermissionSpec(spec, 'perm');
    deny.push('ls');
    expect(checked).toEqual({ bash: { deny: ['rm *'] } });
  });
});
