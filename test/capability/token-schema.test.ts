import fs from 'node:fs';
import fc from 'fast-check';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITY_FIELDS, parseCapabilityFields, type CapabilityField, type ParseContext } from '../../src/capability/fields.js';
import { DEFAULT_LIMITS, UNLIMITED_AT_ZERO } from '../../src/limits.js';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { blockedEntryName } from '../../src/path-guard/blocklist-option.js';
import { parseMcpEntry } from '../../src/mcp/entries.js';
import { CREDENTIAL_PLACES } from '../../src/net/egress/credentials.js';
import { validateNetPermission } from '../../src/net/net-permission.js';
import { validatePermissionSpec } from '../../src/policy/index.js';
import { SANDBOX_MODES } from '../../src/sandbox/types.js';
import { BUILTIN_TOOL_NAMES } from '../../src/tools/builtin-schemas.js';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { generateTokenKeyPair } from '../../runtime/capability/token-key-pair.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// The claims a control plane mints are documented once, in the schema shipped with the package; these tests hold it
// to the capability field table, the limits and the tokens toolwarden itself mints, so neither can drift from it.
const SCHEMA_FILE = new URL('../../src/capability/capability-token.schema.json', import.meta.url);
const schema = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')) as {
  required: string[];
  properties: Record<string, { const?: unknown }>;
  $defs: Record<string, { required?: string[]; properties: Record<string, { default?: unknown; enum?: unknown[]; minimum?: number; examples?: unknown[]; items?: { enum?: unknown[] } }>; examples?: unknown[] }>;
};
const capability = schema.$defs['capability']!;
const limits = schema.$defs['limits']!;
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateClaims = ajv.compile(schema);
const validateHeader = ajv.compile({ ...schema.$defs['header'], $defs: schema.$defs });

const CONTEXT: ParseContext = {
  defaults: { sandbox: 'auto', toolModules: [] },
  canonicalDirectory: () => '/ws',
};
/** What a capability holds when no option is given: every field whose default is a value. */
const defaults = parseCapabilityFields({}, CONTEXT) as unknown as Record<string, unknown>;

describe('the token schema against the capability field table', () => {
  it('names every field of a capability, and nothing else', () => {
    expect(Object.keys(capability.properties).sort()).toEqual(['sid', ...Object.keys(CAPABILITY_FIELDS)].sort());
  });

  it('requires every field a capability always has, but blockedPaths (absent: the default blocklist), and the user serve needs', () => {
    const always = Object.keys(defaults).filter((field) => field !== 'blockedPaths');
    expect([...capability.required!].sort()).toEqual(['sid', 'user', ...always].sort());
  });

  it.each((Object.keys(CAPABILITY_FIELDS) as CapabilityField[]).filter((field) => capability.properties[field]?.default !== undefined))(
    "documents %s's default as the field table's",
    (field) => {
      expect(capability.properties[field]!.default).toEqual(defaults[field]);
    },
  );

  it.each([
    ['sandbox', SANDBOX_MODES],
    ['isolation', capability.properties['isolation']!.enum!],
  ] as const)('lists the values of %s that the field table parses, and only those', (field, values) => {
    expect(capability.properties[field]!.enum).toEqual([...values]);
    for (const value of values) expect(CAPABILITY_FIELDS[field].parse(value, CONTEXT)).toBe(value);
    expect(() => CAPABILITY_FIELDS[field].parse('strongest', CONTEXT)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });

  it('lists every limit, required, with its minimum and its default', () => {
    expect([...limits.required!].sort()).toEqual(Object.keys(DEFAULT_LIMITS).sort());
    expect(Object.keys(limits.properties).sort()).toEqual(Object.keys(DEFAULT_LIMITS).sort());
    for (const [key, value] of Object.entries(DEFAULT_LIMITS)) {
      expect({ key, minimum: limits.properties[key]!.minimum, default: limits.properties[key]!.default }).toEqual({ key, minimum: UNLIMITED_AT_ZERO.has(key as never) ? 0 : 1, default: value });
    }
  });

  it('describes every entry of the default blocklist, by name or written out', () => {
    const validateEntry = ajv.compile({ ...capability.properties['blockedPaths'], $defs: schema.$defs });
    expect(validateEntry(DEFAULT_BLOCKLIST), JSON.stringify(validateEntry.errors)).toBe(true);
    expect(validateEntry(DEFAULT_BLOCKLIST.map(blockedEntryName)), JSON.stringify(validateEntry.errors)).toBe(true);
  });

  it("lists a credential's places as the egress proxy knows them", () => {
    expect(schema.$defs['credentialReference']!.properties['in']!.items!.enum).toEqual([...CREDENTIAL_PLACES]);
  });

  it('gives examples the parsers accept', () => {
    for (const spec of schema.$defs['permissionSpec']!.examples!) expect(() => validatePermissionSpec(spec, 'example', { names: BUILTIN_TOOL_NAMES, mcpServerIds: [] })).not.toThrow();
    for (const net of capability.properties['net']!.examples!) expect(() => validateNetPermission(net)).not.toThrow();
    for (const entries of capability.properties['mcpServers']!.examples! as string[][]) for (const entry of entries) expect(() => parseMcpEntry(entry)).not.toThrow();
    for (const tools of capability.properties['tools']!.examples! as string[][]) expect(BUILTIN_TOOL_NAMES).toEqual(expect.arrayContaining(tools));
  });
});

describe('tokens toolwarden mints for other nodes match the schema', () => {
  let home: TempTree;
  let rt: Runtime;
  beforeAll(async () => {
    home = makeTempTree('tw-token-schema', { 'ws/sub/.keep': '', 'skills/.keep': '', 'docs/.keep': '' });
    const { privateKey } = generateTokenKeyPair('schema-test');
    rt = await createRuntime({
      idleWorkers: 0,
      tokenKeys: { privateKey },
      mcpServers: { github: { command: 'node', args: ['gh.mjs'] } },
      tenants: { alice: { workspaceRoot: home.at('ws'), readRoots: [home.at('skills'), home.at('docs')], tools: [...BUILTIN_TOOL_NAMES], mcpServers: ['github'] } },
    });
  });
  afterAll(async () => {
    await rt?.close();
    home?.cleanup();
  });

  it('for generated session options', async () => {
    const limit = fc.constantFrom(...(Object.keys(DEFAULT_LIMITS) as (keyof typeof DEFAULT_LIMITS)[]));
    const options = fc.record(
      {
        tools: fc.subarray([...BUILTIN_TOOL_NAMES]),
        readRoots: fc.subarray(['skills', 'docs']),
        workspace: fc.constantFrom('ws', 'ws/sub'),
        mcpServers: fc.subarray(['github', 'github:list_*', 'github:create_issue']),
        limits: fc.dictionary(limit, fc.integer({ min: 1, max: 1_000_000 }), { maxKeys: 4 }),
        permissions: fc.constantFrom(...(schema.$defs['permissionSpec']!.examples! as object[]), { '*': 'ask' as const }),
        sandbox: fc.constantFrom(...SANDBOX_MODES),
        net: fc.constantFrom(false as const, ['api.github.com'], ['*.npmjs.org:443', '10.0.0.1']),
        credentials: fc.constantFrom(undefined, { GH_TOKEN: { hosts: ['api.github.com'] } }, { NPM_TOKEN: { hosts: ['registry.npmjs.org'], in: ['header', 'query'] } }),
        blockedPaths: fc.constantFrom(undefined, { add: ['.env'] }),
        allowOutsideWorkspace: fc.constant(false),
        isolation: fc.constantFrom('worker' as const, 'process' as const),
        ttlSeconds: fc.integer({ min: 1, max: 86_400 }),
      },
      { requiredKeys: ['tools', 'workspace', 'sandbox'] },
    );
    await fc.assert(
      fc.asyncProperty(options, async ({ workspace, credentials, blockedPaths, ...rest }) => {
        const token = await rt.mintToken({
          ...rest,
          user: 'alice',
          workspaceRoot: home.at(workspace),
          ...(rest.readRoots ? { readRoots: rest.readRoots.map((root) => home.at(root)) } : {}),
          ...(credentials ? { credentials } : {}),
          ...(blockedPaths ? { blockedPaths } : {}),
        } as never);
        const claims = decodeJwt(token);
        expect(validateClaims(claims), JSON.stringify(validateClaims.errors)).toBe(true);
        expect(validateHeader(decodeProtectedHeader(token)), JSON.stringify(validateHeader.errors)).toBe(true);
        expect(claims.jti).toBe((claims['cap'] as { sid: string }).sid);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('and a claim set altered past the schema is refused by it (the near miss)', async () => {
    const claims = decodeJwt(await rt.mintToken({ user: 'alice', workspaceRoot: home.at('ws'), tools: ['read_file'] }));
    const cap = claims['cap'] as Record<string, unknown>;
    for (const bad of [
      { ...claims, iss: 'someone-else' },
      { ...claims, exp: undefined },
      { ...claims, cap: { ...cap, limits: { ...(cap['limits'] as object), readMaxChar: 1 } } },
      { ...claims, cap: { ...cap, env: ['HOME'] } },
      { ...claims, cap: { ...cap, sandbox: 'none' } },
      { ...claims, cap: { ...cap, toolz: ['bash'] } },
      { ...claims, cap: { ...cap, credentials: { GH_TOKEN: { value: 'ghp_x', hosts: ['api.github.com'] } } } },
    ]) {
      expect(validateClaims(JSON.parse(JSON.stringify(bad)))).toBe(false);
    }
  });
});

describe('the schema ships with the package', () => {
  it('as a file the files list keeps and the exports map names', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(pkg.exports['./capability-token.schema.json']).toBe('./src/capability/capability-token.schema.json');
    expect(pkg.files).toContain('src');
    expect(fs.existsSync(new URL(`../../${pkg.exports['./capability-token.schema.json'] as string}`, import.meta.url))).toBe(true);
  });
});
