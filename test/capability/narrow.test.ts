import path from 'node:path';
import fc from 'fast-check';
import { UNLIMITED_AT_ZERO } from '../../src/limits.js';
import { describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { CAPABILITY_FIELDS } from '../../src/capability/fields.js';
import { NARROW_REQUEST_KEYS, narrowCapability, parseNarrowRequest, type NarrowRequest } from '../../src/capability/narrow.js';
import { effectiveBlocklist } from '../../src/capability/effective-blocklist.js';
import { ToolwardenError } from '../../src/errors.js';
import { formatMcpEntry, narrowMcpEntries, parseMcpEntries } from '../../src/mcp/index.js';
import { blockedEntryName } from '../../src/path-guard/blocklist-option.js';
import { resolveForWrite, resolveReadablePath, type GuardFs, type PathScope } from '../../src/path-guard/index.js';
import { makeCapability, POSIX_NARROW_DEPS } from '../helpers/capability.js';

const parent = makeCapability();
const narrow = (request: NarrowRequest, from: Capability = parent): Capability => narrowCapability(from, parseNarrowRequest(request), 'child', POSIX_NARROW_DEPS);

// Nothing exists and nothing is a link: the guard decides on the rules alone.
const NO_FS: GuardFs = { lstat: () => undefined, readlink: () => '' };
const scopeOf = (c: Capability): PathScope => ({ ...c, blocklist: effectiveBlocklist(c) });
const writable = (c: Capability, p: string): boolean => allows(() => resolveForWrite(p, scopeOf(c), path.posix, NO_FS));
const readable = (c: Capability, p: string): boolean => allows(() => resolveReadablePath(p, scopeOf(c), path.posix, NO_FS));
function allows(check: () => unknown): boolean {
  try {
    check();
    return true;
  } catch (error) {
    if (error instanceof ToolwardenError) return false;
    throw error;
  }
}

// One row per capability field: a request that widens it (ESCALATION) and one that narrows it (allowed), with what
// the narrowed child must hold.
const FIELD_CASES: { field: keyof Capability; widen: NarrowRequest; narrowTo: NarrowRequest; holds: (child: Capability) => boolean }[] = [
  { field: 'tools', widen: { tools: ['read_file', 'edit_file'] }, narrowTo: { tools: ['read_file'] }, holds: (c) => c.tools.join() === 'read_file' },
  { field: 'workspaceRoot', widen: { workspaceRoot: '/' }, narrowTo: { workspaceRoot: '/ws/app' }, holds: (c) => c.workspaceRoot === '/ws/app' },
  { field: 'readRoots', widen: { readRoots: ['/etc'] }, narrowTo: { readRoots: ['/shared/docs'] }, holds: (c) => c.readRoots.includes('/shared/docs') && !c.readRoots.includes('/shared') },
  { field: 'allowOutsideWorkspace', widen: { allowOutsideWorkspace: true }, narrowTo: { allowOutsideWorkspace: false }, holds: (c) => !c.allowOutsideWorkspace },
  { field: 'excludedPaths', widen: { workspaceRoot: '/ws/.git' }, narrowTo: { excludedPaths: ['dist'] }, holds: (c) => c.excludedPaths.includes('dist') && c.excludedPaths.includes('.git') },
  { field: 'mcpServers', widen: { mcpServers: ['slack'] }, narrowTo: { mcpServers: ['gh'] }, holds: (c) => c.mcpServers.join() === 'gh' },
  { field: 'limits', widen: { limits: { readMaxChars: 10_000_000 } }, narrowTo: { limits: { readMaxChars: 10 } }, holds: (c) => c.limits.readMaxChars === 10 },
  { field: 'permissions', widen: { permissions: { bash: 'allow' } }, narrowTo: { permissions: { bash: 'deny' } }, holds: (c) => c.permissions.length === 2 },
  { field: 'sandbox', widen: { sandbox: 'off' }, narrowTo: { sandbox: 'required' }, holds: (c) => c.sandbox === 'required' },
  { field: 'net', widen: { net: ['evil.test'] }, narrowTo: { net: ['api.test'] }, holds: (c) => c.net !== false && c.net.join() === 'api.test' },
  { field: 'credentials', widen: { credentials: ['AWS_KEY'] }, narrowTo: { credentials: ['GH_TOKEN'] }, holds: (c) => Object.keys(c.credentials ?? {}).join() === 'GH_TOKEN' && JSON.stringify(c.credentials?.['GH_TOKEN']).includes('ghp-real') },
  { field: 'env', widen: { env: ['AWS_SECRET'] }, narrowTo: { env: ['PATH'] }, holds: (c) => Array.isArray(c.env) && c.env.join() === 'PATH' },
  { field: 'isolation', widen: { isolation: 'worker' }, narrowTo: { isolation: 'process' }, holds: (c) => c.isolation === 'process' },
  { field: 'blockedPaths', widen: { blockedPaths: { remove: ['.vscode'] } }, narrowTo: { blockedPaths: { add: ['.npmrc'] } }, holds: (c) => effectiveBlocklist(c).some((e) => blockedEntryName(e) === '.npmrc') },
  { field: 'user', widen: { user: 'bob' }, narrowTo: { user: 'alice' }, holds: (c) => c.user === 'alice' },
  { field: 'shellEncoding', widen: { shellEncoding: 'latin1' }, narrowTo: { shellEncoding: 'utf-8' }, holds: (c) => c.shellEncoding === 'utf-8' },
  { field: 'toolModules', widen: { toolModules: ['file:///tools/b.js'] }, narrowTo: { toolModules: ['file:///tools/a.js'] }, holds: (c) => c.toolModules.join() === 'file:///tools/a.js' },
];
// The permissions row widens nothing (a layer only adds); its widening is the one of a process parent below.
const processParent = makeCapability({ isolation: 'process' });

describe('narrowCapability, field by field', () => {
  it('has a test row and a table row for every capability field', () => {
    const fields = Object.keys(parent).filter((k) => k !== 'sid').sort();
    expect(FIELD_CASES.map((c) => c.field).sort()).toEqual(fields);
    expect(Object.keys(CAPABILITY_FIELDS).sort()).toEqual(fields);
  });

  it.each(FIELD_CASES.filter((c) => c.field !== 'permissions'))('$field: widening is ESCALATION', ({ widen, field }) => {
    const from = field === 'isolation' ? processParent : parent;
    expect(() => narrow(widen, from)).toThrow(expect.objectContaining({ code: 'ESCALATION' }));
  });

  it.each(FIELD_CASES)('$field: narrowing is allowed', ({ narrowTo, holds }) => {
    expect(holds(narrow(narrowTo))).toBe(true);
  });

  it('keeps every field of the parent when the request is empty, under a new id', () => {
    const { sid, ...rest } = narrow({});
    expect(sid).toBe('child');
    const { sid: _parentSid, ...parentRest } = parent;
    expect(rest).toEqual(parentRest);
  });

  it('a permissions layer of the child cannot lift a parent rule', () => {
    const child = narrow({ permissions: { bash: 'allow' } });
    expect(child.permissions[0]).toEqual(parent.permissions[0]);
  });
});

describe('attenuation requests are checked before they narrow', () => {
  it.each([
    ['a misspelled key', { tool: ['read_file'] }, "'tool'"],
    ['__proto__ as an own key', JSON.parse('{"__proto__": {"tools": []}}'), "'__proto__'"],
    ['constructor', { constructor: 1 }, "'constructor'"],
    ['an inherited field', Object.create({ tools: ['read_file'] }), 'plain object'],
    ['tools not an array', { tools: 'read_file' }, 'tools'],
    ['allowOutsideWorkspace not a boolean', { allowOutsideWorkspace: 'no' }, 'allowOutsideWorkspace'],
    ['an unknown sandbox mode', { sandbox: 'strict' }, 'sandbox'],
    ['an unknown isolation', { isolation: 'vm' }, 'isolation'],
    ['a fractional ttl', { ttlSeconds: 1.5 }, 'ttlSeconds'],
    ['an unknown limit', { limits: { readMaxChar: 1 } }, "'readMaxChar'"],
    ['a limit named constructor', { limits: { constructor: 1 } }, "'constructor'"],
    ['a NaN limit', { limits: { writeQuotaBytes: Number.NaN } }, 'writeQuotaBytes'],
    ['an infinite limit', { limits: { readMaxChars: Number.POSITIVE_INFINITY } }, 'readMaxChars'],
    ['a string limit', { limits: { maxResults: '5' } }, 'maxResults'],
    ['a negative limit', { limits: { writeQuotaBytes: -1 } }, 'writeQuotaBytes'],
    ['a fractional limit', { limits: { maxResults: 2.5 } }, 'maxResults'],
    ['an excluded path climbing out', { excludedPaths: ['../x'] }, 'excludedPaths'],
    ['a blocklist entry the parent lacks', { blockedPaths: { remove: ['.vscod'] } }, "'.vscod'"],
    ['a bad blockedPaths key', { blockedPaths: { drop: ['.vscode'] } }, "'drop'"],
  ])('%s is INVALID_OPTIONS naming it', (_name, request, named) => {
    expect(() => narrow(request as NarrowRequest)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(named) }));
  });

  it('a write quota of 0 (unlimited) is ESCALATION under a quota, allowed under none', () => {
    expect(() => narrow({ limits: { writeQuotaBytes: 0 } })).toThrow(expect.objectContaining({ code: 'ESCALATION' }));
    expect(narrow({ limits: { writeQuotaBytes: 999 } }).limits.writeQuotaBytes).toBe(999);
    const unlimited = makeCapability({ limits: { ...parent.limits, writeQuotaBytes: 0 } });
    expect(narrow({ limits: { writeQuotaBytes: 0 } }, unlimited).limits.writeQuotaBytes).toBe(0);
  });
});

describe('protected subtrees stay protected in any child', () => {
  it('re-roots the excluded paths of the parent into a child rooted below it', () => {
    const child = narrow({ workspaceRoot: '/ws/app' });
    expect(child.excludedPaths).toEqual(['secret']);
    expect(writable(child, '/ws/app/secret/key')).toBe(false);
    expect(writable(child, '/ws/app/src/a.ts')).toBe(true);
  });

  it('keeps exclusions outside its root for a child that may write outside, spelled from its root', () => {
    const outside = makeCapability({ allowOutsideWorkspace: true });
    const child = narrow({ workspaceRoot: '/ws/app' }, outside);
    expect(child.excludedPaths).toEqual(['../.git', 'secret']);
    expect(writable(child, '/ws/.git/config')).toBe(false);
    expect(writable(child, '/ws/app/secret/x')).toBe(false);
    // and in the grandchild, re-rooted again
    const grandchild = narrow({ workspaceRoot: '/ws/app/src' }, child);
    expect(writable(grandchild, '/ws/.git/config')).toBe(false);
    expect(writable(grandchild, '/ws/app/secret/x')).toBe(false);
  });

  it.each([
    ['a read root dropped with readRoots: []', { readRoots: [] }],
    ['a read root dropped by a child rooted above it', { workspaceRoot: '/ws', readRoots: ['/shared'] }],
  ])('keeps a parent read root inside the workspace read-only: %s', (_name, request) => {
    const child = narrow(request);
    expect(writable(parent, '/ws/vendor/lib.js')).toBe(false);
    expect(writable(child, '/ws/vendor/lib.js')).toBe(false);
    expect(readable(child, '/ws/vendor/lib.js')).toBe(true);
    expect(writable(child, '/ws/src/a.ts')).toBe(true);
  });

  it('does not grant a child the read roots outside its workspace that it dropped', () => {
    const child = narrow({ readRoots: [] });
    expect(readable(child, '/shared/doc.md')).toBe(false);
  });

  it.each([
    ['under an excluded path', '/ws/.git'],
    ['under an excluded path, nested', '/ws/app/secret/inner'],
    ['in a read-only root', '/ws/vendor'],
    ['in a read-only root, below', '/ws/vendor/pkg'],
    ['outside the parent', '/shared'],
  ])('refuses a child workspace %s (ESCALATION)', (_name, root) => {
    expect(() => narrow({ workspaceRoot: root })).toThrow(expect.objectContaining({ code: 'ESCALATION' }));
  });

  it("blocks a nested repository's .git/config at the root of a child rooted in it", () => {
    expect(writable(parent, '/ws/app/.git/config')).toBe(false);
    expect(writable(parent, '/ws/.git-not/config')).toBe(true);
    const child = narrow({ workspaceRoot: '/ws/app' });
    expect(writable(child, '/ws/app/.git/config')).toBe(false);
  });
});

// Any child the narrowing accepts is a subset of its parent: every path the parent may not write or read stays so,
// and every other field is at most the parent's.
describe('property: an accepted child is a subset of its parent', () => {
  const PATHS = ['/ws', '/ws/a.txt', '/ws/app', '/ws/app/x.ts', '/ws/app/secret/k', '/ws/.git/config', '/ws/.git/hooks/pre-commit', '/ws/vendor/lib.js', '/ws/vendor/pkg/x', '/ws/app/.git/config', '/ws/app/.vscode/tasks.json', '/shared/doc.md', '/shared/sub/x', '/etc/passwd', '/out/x'];
  const ROOTS = ['/ws', '/ws/app', '/ws/app/deep', '/ws/vendor', '/ws/.git', '/shared', '/shared/sub', '/', '/out'];
  const subset = <T>(items: readonly T[]) => fc.subarray([...items]);
  // Mostly absent, so that most generated children are accepted and the property has something to check.
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: arb, weight: 1 });
  const request = fc.record(
    {
      tools: optional(subset(['read_file', 'write_file', 'grep', 'bash', 'edit_file'])),
      workspaceRoot: optional(fc.constantFrom(...ROOTS)),
      readRoots: optional(subset(ROOTS)),
      allowOutsideWorkspace: optional(fc.boolean()),
      excludedPaths: optional(subset(['dist', 'app/gen', 'x/y'])),
      limits: optional(fc.record({ readMaxChars: optional(fc.oneof(fc.integer({ min: -5, max: 200_000 }), fc.constant(Number.NaN))), writeQuotaBytes: optional(fc.integer({ min: 0, max: 2000 })) })),
      sandbox: optional(fc.constantFrom('auto', 'required', 'off')),
      net: optional(fc.oneof(fc.constant(false as const), subset(['example.com', 'api.test', 'evil.test']))),
      env: optional(subset(['PATH', 'NODE_*', 'HOME'])),
      isolation: optional(fc.constantFrom('worker', 'process')),
      blockedPaths: optional(fc.record({ add: optional(subset(['.npmrc', 'build/out'])), remove: optional(subset(['.vscode', '.npmrc'])) })),
    },
    { requiredKeys: [] },
  );
  const parents = fc.record({ allowOutsideWorkspace: fc.boolean(), writeQuotaBytes: fc.constantFrom(0, 1000) }).map(({ allowOutsideWorkspace, writeQuotaBytes }) => makeCapability({ allowOutsideWorkspace, limits: { ...parent.limits, writeQuotaBytes } }));

  it('holds for generated requests, through two generations', () => {
    let accepted = 0;
    fc.assert(
      fc.property(parents, request, request, (from, first, second) => {
        const strip = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as NarrowRequest;
        let current = from;
        for (const asked of [first, second]) {
          let child: Capability;
          try {
            child = narrow(strip(asked), current);
          } catch (error) {
            expect(['ESCALATION', 'INVALID_OPTIONS']).toContain((error as ToolwardenError).code);
            return;
          }
          assertSubset(child, current);
          assertSubset(child, from);
          accepted += 1;
          current = child;
        }
      }),
      { numRuns: 400 },
    );
    // The property must see accepted children, not only refusals.
    expect(accepted).toBeGreaterThan(100);
  });

  function assertSubset(child: Capability, of: Capability): void {
    for (const p of PATHS) {
      if (!writable(of, p)) expect(writable(child, p), `write ${p}`).toBe(false);
      if (!readable(of, p)) expect(readable(child, p), `read ${p}`).toBe(false);
    }
    expect(child.tools.every((t) => of.tools.includes(t))).toBe(true);
    expect(child.mcpServers.every((m) => of.mcpServers.includes(m))).toBe(true);
    for (const [key, value] of Object.entries(child.limits) as [keyof Capability['limits'], number][]) {
      const ceiling = of.limits[key];
      if (UNLIMITED_AT_ZERO.has(key) && ceiling === 0) continue;
      expect(value, key).toBeGreaterThanOrEqual(1);
      expect(value, key).toBeLessThanOrEqual(ceiling);
    }
    const strict = { off: 0, auto: 1, required: 2 };
    expect(strict[child.sandbox]).toBeGreaterThanOrEqual(strict[of.sandbox]);
    if (child.net !== false) expect(of.net !== false && child.net.every((h) => of.net !== false && of.net.includes(h))).toBe(true);
    expect((child.env as string[]).every((e) => (of.env as string[]).includes(e))).toBe(true);
    expect(child.isolation === of.isolation || child.isolation === 'process').toBe(true);
    expect(child.allowOutsideWorkspace && !of.allowOutsideWorkspace).toBe(false);
    const names = effectiveBlocklist(child).map(blockedEntryName);
    expect(effectiveBlocklist(of).every((e) => names.includes(blockedEntryName(e)))).toBe(true);
    expect(child.permissions.slice(0, of.permissions.length)).toEqual(of.permissions);
    expect([child.user, child.shellEncoding, child.toolModules]).toEqual([of.user, of.shellEncoding, of.toolModules]);
  }
});

// Every field, several ways to ask for more than the parent has: each is ESCALATION, and asking for exactly the
// parent's value (the near miss) is allowed. Limits get one row per limit, each one above the parent's ceiling.
describe('a child can only narrow: every wider value of every field is ESCALATION', () => {
  // A limit where 0 means unlimited is at 0 by default: its parent gets a bound first, and 0 (unlimited) is wider too.
  const limitRows = (Object.keys(parent.limits) as (keyof Capability['limits'])[]).flatMap((key): [string, NarrowRequest, Capability][] => {
    if (!UNLIMITED_AT_ZERO.has(key) || parent.limits[key] !== 0) return [[`limits.${key} above the parent's`, { limits: { [key]: parent.limits[key] + 1 } }, parent]];
    const bounded = makeCapability({ limits: { ...parent.limits, [key]: 100 } });
    return [
      [`limits.${key} above the parent's`, { limits: { [key]: 101 } }, bounded],
      [`limits.${key} unlimited under a bound`, { limits: { [key]: 0 } }, bounded],
    ];
  });
  const WIDER: [field: keyof Capability | string, request: NarrowRequest, from: Capability][] = [
    ['tools: one more tool', { tools: ['read_file', 'web_fetch'] }, parent],
    ['tools: only a tool the parent lacks', { tools: ['apply_patch'] }, parent],
    ['workspaceRoot: the filesystem root', { workspaceRoot: '/' }, parent],
    ['workspaceRoot: the prefix twin', { workspaceRoot: '/ws-evil' }, parent],
    ['workspaceRoot: a sibling', { workspaceRoot: '/shared' }, parent],
    ['readRoots: outside everything', { readRoots: ['/etc'] }, parent],
    ['readRoots: a prefix twin of a read root', { readRoots: ['/shared-evil'] }, parent],
    ['readRoots: the parent of a read root', { readRoots: ['/'] }, parent],
    ['allowOutsideWorkspace: true under false', { allowOutsideWorkspace: true }, parent],
    ['excludedPaths: a root under an excluded path', { workspaceRoot: '/ws/app/secret' }, parent],
    ['mcpServers: a server the parent lacks', { mcpServers: ['slack'] }, parent],
    ['mcpServers: a whole server of which the parent has some tools', { mcpServers: ['docs'] }, parent],
    ...limitRows,
    ['limits.writeQuotaBytes unlimited under a quota', { limits: { writeQuotaBytes: 0 } }, parent],
    ['sandbox: off under auto', { sandbox: 'off' }, parent],
    ['sandbox: auto under required', { sandbox: 'auto' }, makeCapability({ sandbox: 'required' })],
    ['net: a host the parent lacks', { net: ['evil.test'] }, parent],
    ['net: one host more', { net: ['example.com', 'evil.test'] }, parent],
    ['net: any host under no network', { net: ['example.com'] }, makeCapability({ net: false })],
    ['credentials: a name the parent lacks', { credentials: ['AWS_KEY'] }, parent],
    ['env: a name the parent lacks', { env: ['HOME'] }, parent],
    ['env: a name only a parent pattern covers', { env: ['NODE_OPTIONS'] }, parent],
    ['isolation: worker under process', { isolation: 'worker' }, makeCapability({ isolation: 'process' })],
    ['blockedPaths: removing an entry the parent blocks', { blockedPaths: { remove: ['.vscode'] } }, parent],
    ['user: another user', { user: 'bob' }, parent],
    ['shellEncoding: another encoding', { shellEncoding: 'latin1' }, parent],
    ['toolModules: one module more', { toolModules: ['file:///tools/a.js', 'file:///tools/b.js'] }, parent],
    ['toolModules: none of them', { toolModules: [] }, parent],
  ];

  it('covers every field of the table', () => {
    const covered = new Set(WIDER.map(([name]) => name.split(/[:.]/)[0]));
    // permissions cannot be widened at all: a child's layer only adds (checked below).
    expect([...covered, 'permissions'].sort()).toEqual(Object.keys(CAPABILITY_FIELDS).sort());
  });

  // The real MCP entry narrowing, as the runtime injects it, over servers gh, docs and slack.
  const deps = { ...POSIX_NARROW_DEPS, narrowMcp: (from: readonly string[], asked: readonly string[]) => narrowMcpEntries(parseMcpEntries(from, ['gh', 'docs', 'slack']), asked).map(formatMcpEntry) };
  it.each(WIDER)('%s', (_name, request, from) => {
    expect(() => narrowCapability(from, parseNarrowRequest(request), 'child', deps)).toThrow(expect.objectContaining({ code: 'ESCALATION' }));
  });

  it("near miss: an MCP tool the parent's prefix entry covers is allowed", () => {
    expect(narrowCapability(parent, parseNarrowRequest({ mcpServers: ['docs:read_file'] }), 'child', deps).mcpServers).toEqual(['docs:read_file']);
  });

  it.each(Object.keys(CAPABILITY_FIELDS).filter((field) => !['permissions', 'blockedPaths', 'credentials'].includes(field)))('near miss: %s asked at exactly the parent\'s value is allowed', (field) => {
    const value = parent[field as keyof Capability];
    const child = narrow({ [field]: value } as NarrowRequest);
    expect(child[field as keyof Capability]).toEqual(value);
  });

  it('permissions: a child layer is added after every parent layer, so it can only make answers stricter', () => {
    const child = narrow({ permissions: { bash: 'allow', '*': 'allow' } });
    expect(child.permissions.slice(0, parent.permissions.length)).toEqual(parent.permissions);
    expect(child.permissions).toHaveLength(parent.permissions.length + 1);
  });
});

describe('an attenuation request is parsed once, at the boundary, by its field', () => {
  it('knows exactly the table fields and ttlSeconds', () => {
    expect([...NARROW_REQUEST_KEYS].sort()).toEqual([...Object.keys(CAPABILITY_FIELDS), 'ttlSeconds'].sort());
  });

  it('hands the narrowing parsed values: limits checked, excluded paths normalized', () => {
    expect(parseNarrowRequest({ limits: { maxResults: 5 }, excludedPaths: ['./dist/', 'a//b'] })).toEqual({ limits: { maxResults: 5 }, excludedPaths: ['dist', 'a/b'] });
  });

  it.each<[string, unknown]>([
    ['workspaceRoot', ''],
    ['readRoots', [1]],
    ['allowOutsideWorkspace', 'yes'],
    ['excludedPaths', 'dist'],
    ['tools', [null]],
    ['mcpServers', ['']],
    ['limits', { maxResults: 0 }],
    ['sandbox', 'strict'],
    ['net', true],
    ['credentials', 'GH_TOKEN'],
    ['env', { HOME: '/x' }],
    ['isolation', 'vm'],
    ['toolModules', 'file:///a.js'],
    ['user', 7],
    ['shellEncoding', ''],
  ])('a malformed %s is INVALID_OPTIONS naming it', (field, value) => {
    expect(() => parseNarrowRequest({ [field]: value })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(field) }));
  });
});
