import { describe, expect, it } from 'vitest';
import { DEFAULT_MCP_SERVER_LIMITS, validateMcpServers } from '../../src/mcp/index.js';
import { resolveMcpServerLimits } from '../../src/mcp/server-limits.js';
import { errorOf } from './helpers.js';

describe('mcpServers.<id>.limits', () => {
  it.each([
    ['none: the defaults', undefined, DEFAULT_MCP_SERVER_LIMITS],
    ['an empty object: the defaults', {}, DEFAULT_MCP_SERVER_LIMITS],
    ['one limit raised, the others default', { maxTools: 5000 }, { ...DEFAULT_MCP_SERVER_LIMITS, maxTools: 5000 }],
    ['every limit lowered to 1', { maxPages: 1, maxTools: 1, maxSchemaBytes: 1, maxResultBytes: 1 }, { maxPages: 1, maxTools: 1, maxSchemaBytes: 1, maxResultBytes: 1 }],
  ])('resolves %s', (_name, limits, expected) => {
    expect(resolveMcpServerLimits('s', limits)).toEqual(expected);
  });

  it.each([
    ['on a stdio server', { s: { command: 'x', limits: { maxPages: 3 } } }],
    ['on an http server', { s: { url: 'http://h/mcp', limits: { maxResultBytes: 1024 } } }],
  ])('is accepted %s', (_name, value) => {
    expect(validateMcpServers(value)).toBe(value);
  });

  it.each([
    ['not an object', [], /mcpServers\.s\.limits must be an object of maxPages, maxTools, maxSchemaBytes, maxResultBytes/],
    ['null', null, /mcpServers\.s\.limits must be an object/],
    ['an unknown limit', { maxPagez: 3 }, /mcpServers\.s\.limits\.maxPagez is not a known limit/],
    ['a __proto__ key', JSON.parse('{"__proto__": {"maxPages": 1}}') as unknown, /mcpServers\.s\.limits\.__proto__ is not a known limit/],
    ['a constructor key', { constructor: 1 }, /limits\.constructor is not a known limit/],
    ['a string number', { maxPages: '10' }, /limits\.maxPages must be a positive integer, got string/],
    ['NaN', { maxTools: Number.NaN }, /limits\.maxTools must be a positive integer, got NaN/],
    ['Infinity', { maxResultBytes: Number.POSITIVE_INFINITY }, /limits\.maxResultBytes must be a positive integer, got Infinity/],
    ['zero', { maxPages: 0 }, /limits\.maxPages must be a positive integer, got 0/],
    ['a negative number', { maxSchemaBytes: -1 }, /limits\.maxSchemaBytes must be a positive integer, got -1/],
    ['a fraction', { maxPages: 1.5 }, /limits\.maxPages must be a positive integer, got 1.5/],
  ])('refuses %s with INVALID_OPTIONS naming the field', (_name, limits, message) => {
    const error = errorOf(() => validateMcpServers({ s: { command: 'x', limits } }));
    expect(error?.code).toBe('INVALID_OPTIONS');
    expect(error?.message).toMatch(message);
  });
});
