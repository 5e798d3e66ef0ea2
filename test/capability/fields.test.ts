import { describe, expect, it } from 'vitest';
import { CAPABILITY_FIELDS, parseCapabilityFields, type CapabilityField, type ParseContext } from '../../src/capability/fields.js';
import { ToolwardenError } from '../../src/errors.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';

// Directories exist when they start with /ws or /ro; the real look-up is runtime's canonicalDirectory.
const ctx: ParseContext = {
  defaults: { sandbox: 'auto', toolModules: ['file:///t.js'] },
  canonicalDirectory: (value, name) => {
    if (typeof value === 'string' && /^\/(ws|ro)/.test(value)) return value;
    throw new ToolwardenError('INVALID_OPTIONS', `${name} '${String(value)}' does not exist`);
  },
};

// One row per field: a value parse refuses naming the field, and the default when the option is absent.
const PARSE_CASES: { field: CapabilityField; bad: unknown; named: string; fallback: unknown }[] = [
  { field: 'workspaceRoot', bad: '/missing', named: 'workspaceRoot', fallback: 'throws' },
  { field: 'readRoots', bad: ['/missing'], named: 'readRoots[0]', fallback: [] },
  { field: 'allowOutsideWorkspace', bad: 'yes', named: 'allowOutsideWorkspace', fallback: false },
  { field: 'excludedPaths', bad: ['../up'], named: 'excludedPaths', fallback: ['.git'] },
  { field: 'tools', bad: 'read_file', named: 'tools', fallback: [] },
  { field: 'mcpServers', bad: [''], named: 'mcpServers', fallback: [] },
  { field: 'limits', bad: { readMaxChars: Number.NaN }, named: 'limits.readMaxChars', fallback: DEFAULT_LIMITS },
  { field: 'permissions', bad: { bash: 'maybe' }, named: 'permissions.bash', fallback: [] },
  { field: 'sandbox', bad: 'strict', named: 'sandbox', fallback: 'auto' },
  { field: 'net', bad: true, named: 'net', fallback: false },
  { field: 'credentials', bad: { TOKEN: { value: 'x', hosts: ['*'] } }, named: 'credentials.TOKEN.hosts', fallback: undefined },
  { field: 'env', bad: { HOME: 1 }, named: 'env.HOME', fallback: [] },
  { field: 'isolation', bad: 'vm', named: 'isolation', fallback: 'worker' },
  { field: 'blockedPaths', bad: { remove: ['nope'] }, named: 'blockedPaths.remove', fallback: DEFAULT_BLOCKLIST },
  { field: 'toolModules', bad: [1], named: 'toolModules', fallback: ['file:///t.js'] },
  { field: 'user', bad: '', named: 'user', fallback: undefined },
  { field: 'shellEncoding', bad: 7, named: 'shellEncoding', fallback: undefined },
];

describe('CAPABILITY_FIELDS parse and default', () => {
  it('has a row for every field of the table', () => {
    expect(PARSE_CASES.map((c) => c.field).sort()).toEqual(Object.keys(CAPABILITY_FIELDS).sort());
  });

  it.each(PARSE_CASES)('$field: a bad value is INVALID_OPTIONS naming $named', ({ field, bad, named }) => {
    expect(() => CAPABILITY_FIELDS[field].parse(bad, ctx)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(named) }));
  });

  it.each(PARSE_CASES.filter((c) => c.fallback !== 'throws'))('$field: absent, it takes its default', ({ field, fallback }) => {
    expect(CAPABILITY_FIELDS[field].default(ctx)).toEqual(fallback);
  });

  it('requires a workspace root', () => {
    expect(() => parseCapabilityFields({}, ctx)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('workspaceRoot') }));
  });

  it('builds every field from options, leaving out the optional ones not given', () => {
    const fields = parseCapabilityFields({ workspaceRoot: '/ws', tools: ['read_file', 'read_file'], toolModules: ['file:///s.js'], limits: { maxResults: 5 } }, ctx);
    expect(fields).toMatchObject({ workspaceRoot: '/ws', tools: ['read_file'], toolModules: ['file:///t.js', 'file:///s.js'], limits: { ...DEFAULT_LIMITS, maxResults: 5 } });
    expect('user' in fields).toBe(false);
  });
});
