import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../../src/tools/builtin-registry.js';
import { BUILTIN_DESCRIPTIONS, BUILTIN_SCHEMAS, BUILTIN_TOOL_NAMES, builtinTool, isBuiltinTool } from '../../src/tools/builtin-schemas.js';
import { BUILTIN_OUTPUT_SCHEMAS, BUILTIN_TITLES, builtinAnnotations } from '../../src/tools/tool-presentation.js';
import { describeBuiltinTool } from '../../src/tools/tool-info.js';
import { describeSubject, readOnlyTools } from '../../src/policy/index.js';
import type { BrokerRequest, BrokerRequestType } from '../../src/protocol/broker.js';
import { refusalOfGrant } from '../../runtime/broker/call-grants.js';
import type { CallGrant } from '../../runtime/broker/call-tracker.js';
import { CTX_FS_RULES } from '../../runtime/broker/ctx-requests.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { describeCall } from '../../runtime/calls/call-subject.js';
import { reportsProgress } from '../../runtime/serve/call-progress.js';
import { dispatchTool } from '../../workers/tool-dispatch.js';
import type { FileToolContext } from '../../src/tools/file-tools.js';
import { buildCapability } from '../../runtime/session/session-options.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// The registry is the only source of what a built-in tool is: every table the rest of the code reads is derived from
// it, and the behaviour built on those tables (subjects, broker grants, ctx rules) follows the descriptor.
const NAMES = Object.keys(BUILTIN_TOOLS) as (keyof typeof BUILTIN_TOOLS)[];

describe('the built-in tool registry', () => {
  it.each(NAMES)('%s has every part of a descriptor', (name) => {
    const tool = BUILTIN_TOOLS[name];
    expect(tool.title.length).toBeGreaterThan(0);
    expect(tool.description.length).toBeGreaterThan(100);
    expect(tool.schema.def.type).toBe('object');
    expect(tool.outputSchema).toMatchObject({ type: 'object' });
    expect(tool.outputSchema).not.toHaveProperty('required');
    expect(tool.subject === 'commands' || tool.subject === 'name' || typeof tool.subject === 'object').toBe(true);
    // A tool whose code runs in the worker reaches files through broker requests its call is granted; one that runs
    // on the main thread is granted none (no worker ever sends a request for its call).
    expect(Object.keys(tool.broker).length > 0).toBe(tool.runsIn === 'worker');
  });

  it('every derived table equals the registry', () => {
    expect(BUILTIN_TOOL_NAMES).toEqual(NAMES);
    for (const name of NAMES) {
      const tool = BUILTIN_TOOLS[name];
      expect(BUILTIN_SCHEMAS[name], name).toBe(tool.schema);
      expect(BUILTIN_DESCRIPTIONS[name], name).toBe(tool.description);
      expect(BUILTIN_TITLES[name], name).toBe(tool.title);
      expect(BUILTIN_OUTPUT_SCHEMAS[name], name).toBe(tool.outputSchema);
      expect(builtinTool(name), name).toBe(tool);
      expect(describeBuiltinTool(name), name).toMatchObject({ name, title: tool.title, description: tool.description, outputSchema: tool.outputSchema });
      const annotations = builtinAnnotations(name, ['example.com']);
      expect(annotations, name).toEqual({ title: tool.title, readOnlyHint: tool.hints.readOnly, destructiveHint: tool.hints.destructive, idempotentHint: tool.hints.idempotent, openWorldHint: tool.hints.openWorld !== false });
    }
    expect([...readOnlyTools()].sort()).toEqual(NAMES.filter((name) => BUILTIN_TOOLS[name].readOnlyProfile).sort());
    expect(Object.entries(CTX_FS_RULES).sort()).toEqual(NAMES.flatMap((name) => BUILTIN_TOOLS[name].ctxFs.map((op) => [op, name])).sort());
  });

  it.each(['constructor', '__proto__', 'toString', 'mcp__x__read_file', 'READ_FILE', ''])('%j is no built-in tool', (name) => {
    expect(isBuiltinTool(name)).toBe(false);
    expect(builtinTool(name)).toBeUndefined();
  });

  it('every ctx.fs operation is governed by exactly one tool', () => {
    const ops = NAMES.flatMap((name) => BUILTIN_TOOLS[name].ctxFs);
    expect(new Set(ops).size).toBe(ops.length);
    expect([...ops].sort()).toEqual(['editFile', 'glob', 'grep', 'list', 'readFile', 'stat', 'writeFile']);
  });
});

describe('where a tool runs and what it reports follow the descriptor', () => {
  // A worker context whose every request fails: a handler that exists reaches it; a missing one never gets that far.
  const unreachable = new Proxy({}, { get: () => () => Promise.reject(new Error('reached the broker')) }) as unknown as FileToolContext;
  it.each(NAMES)('%s is dispatched in the worker exactly when it runs there', async (name) => {
    const result = await dispatchTool(name, { path: 'a.txt', pattern: 'x', content: '', old_string: 'a', new_string: 'b', patch: '*** Begin Patch\n*** Add File: a\n+x\n*** End Patch' }, unreachable);
    const refusedAsForeign = result.isError === true && /does not run in a session worker/.test(JSON.stringify(result.content));
    expect(refusedAsForeign).toBe(BUILTIN_TOOLS[name].runsIn === 'main');
  });

  it('only a tool that runs in the worker asks the broker, and only read_file has its first request prefetched', () => {
    for (const name of NAMES) expect(Object.keys(BUILTIN_TOOLS[name].broker).length > 0, name).toBe(BUILTIN_TOOLS[name].runsIn === 'worker');
    const prefetching = NAMES.filter((name) => 'prefetch' in BUILTIN_TOOLS[name]);
    expect(prefetching).toEqual(['read_file']);
    for (const name of prefetching) expect(Object.keys(BUILTIN_TOOLS[name].broker), name).toContain((BUILTIN_TOOLS[name] as { prefetch: string }).prefetch);
  });

  it.each([
    ['grep', {}, true],
    ['glob', { pattern: '**' }, true],
    ['bash', {}, true],
    ['bash', { action: 'exec', command: 'sleep 5' }, true],
    ['bash', { action: 'status', processId: 'p1' }, false],
    ['bash', { action: 7 }, false],
    ['read_file', { path: 'a' }, false],
    ['web_fetch', { url: 'https://example.com' }, false],
    ['mcp__gh__search', {}, false],
    ['noop', {}, false],
  ] as const)('progress for %s %j: %s', (name, args, expected) => {
    expect(reportsProgress(name, args as Record<string, unknown>)).toBe(expected);
  });
});

describe('subjects follow the descriptor', () => {
  let home: TempTree;
  let paths: SessionPaths;
  beforeAll(() => {
    home = makeTempTree('tw-registry', { 'ws/a.txt': 'a\n' });
    fs.mkdirSync(home.at('ws/dir'));
    paths = new SessionPaths(buildCapability({ workspaceRoot: home.at('ws'), tools: [] }, { sandbox: 'off', toolModules: [] }));
  });
  afterAll(() => home.cleanup());

  const ARGS: Record<keyof typeof BUILTIN_TOOLS, Record<string, unknown>> = {
    read_file: { path: 'a.txt' },
    write_file: { path: 'new.txt', content: 'x' },
    edit_file: { path: 'a.txt', old_string: 'a', new_string: 'b' },
    apply_patch: { patch: '*** Begin Patch\n*** Add File: p.txt\n+x\n*** End Patch' },
    list_dir: {},
    glob: { pattern: '*' },
    grep: { pattern: 'a' },
    bash: { command: 'ls' },
    web_fetch: { url: 'https://example.com' },
  };
  const EXPECTED_PATHS: Record<keyof typeof BUILTIN_TOOLS, string[] | undefined> = {
    read_file: ['a.txt'],
    write_file: ['new.txt'],
    edit_file: ['a.txt'],
    apply_patch: ['p.txt'],
    list_dir: ['.'],
    glob: ['.'],
    grep: ['.'],
    bash: undefined,
    web_fetch: undefined,
  };

  it.each(NAMES)('%s: the guarded subject and the lexical one agree with the registry', (name) => {
    const spec = BUILTIN_TOOLS[name].subject;
    const subject = describeCall(paths, name, ARGS[name]);
    expect(subject.kind).toBe(typeof spec === 'object' ? 'file' : 'other');
    expect(subject.paths).toEqual(EXPECTED_PATHS[name]);
    const lexical = describeSubject(name, ARGS[name]);
    expect(lexical.kind).toBe(typeof spec === 'object' ? 'file' : name === 'bash' ? 'bash' : 'other');
    // apply_patch's paths live inside its patch, which the lexical subject does not parse.
    if (typeof spec === 'object' && spec.path !== 'in-patch') expect(lexical.paths).toEqual(EXPECTED_PATHS[name]);
  });
});

describe('broker grants follow the descriptor', () => {
  // One request of each built-in type, carrying exactly the arguments of the call it claims to serve.
  const requestFor = (type: BrokerRequestType, args: Record<string, unknown>): BrokerRequest => {
    const base = { v: 1 as const, seq: 1, callId: 'c' };
    switch (type) {
      case 'readFile':
        return { ...base, type, path: 'p.txt' };
      case 'readFileStrict':
        return { ...base, type, path: String(args['path']) };
      case 'writeFile':
        return { ...base, type, path: String(args['path']), content: String(args['content'] ?? 'edited') };
      case 'listDir':
        return { ...base, type, ...(args['path'] === undefined ? {} : { path: String(args['path']) }) };
      case 'glob':
        return { ...base, type, pattern: String(args['pattern']) };
      case 'grep':
        return { ...base, type, request: args as never };
      case 'applyChanges':
        return { ...base, type, steps: [{ path: 'p.txt' } as never] };
      default:
        return { ...base, type: 'log', level: 'info', message: 'x' };
    }
  };
  const TYPES: BrokerRequestType[] = ['readFile', 'readFileStrict', 'writeFile', 'listDir', 'glob', 'grep', 'applyChanges', 'ctxFs', 'ctxExec', 'ctxFetch', 'ctxMcp', 'log'];
  const ARGS: Record<string, Record<string, unknown>> = {
    read_file: { path: 'a.txt' },
    write_file: { path: 'a.txt', content: 'x' },
    edit_file: { path: 'a.txt', old_string: 'a', new_string: 'b' },
    apply_patch: { patch: '*** Begin Patch\n*** Add File: p.txt\n+x\n*** End Patch' },
    list_dir: { path: 'dir' },
    glob: { pattern: '*.ts' },
    grep: { pattern: 'x' },
    bash: { command: 'ls' },
    web_fetch: { url: 'https://example.com' },
  };
  const grantOf = (tool: string): CallGrant => ({ callId: 'c', tool, args: ARGS[tool] ?? {}, hostTool: false, served: new Set(), context: undefined as never, activity: undefined as never, guardRule: undefined });

  it.each(NAMES.flatMap((name) => TYPES.map((type) => [name, type] as const)))('%s may send %s only when its descriptor lists it', (name, type) => {
    const listed = Object.hasOwn(BUILTIN_TOOLS[name].broker, type);
    const refusal = refusalOfGrant(grantOf(name), requestFor(type, ARGS[name] ?? {}));
    if (listed) expect(refusal).toBeUndefined();
    else expect(refusal).toMatch(/is not part of the admitted/);
  });

  it.each<[string, string, BrokerRequest]>([
    ['read_file for another path', 'read_file', { v: 1, seq: 1, callId: 'c', type: 'readFileStrict', path: 'other.txt' }],
    ['write_file with other content', 'write_file', { v: 1, seq: 1, callId: 'c', type: 'writeFile', path: 'a.txt', content: 'y' }],
    ['glob with another pattern', 'glob', { v: 1, seq: 1, callId: 'c', type: 'glob', pattern: '**' }],
    ['grep with an extra field', 'grep', { v: 1, seq: 1, callId: 'c', type: 'grep', request: { pattern: 'x', path: '..' } }],
    ['apply_patch reading a path outside its patch', 'apply_patch', { v: 1, seq: 1, callId: 'c', type: 'readFile', path: 'other.txt' }],
    ['apply_patch changing a path outside its patch', 'apply_patch', { v: 1, seq: 1, callId: 'c', type: 'applyChanges', steps: [{ path: 'other.txt' } as never] }],
  ])('a listed request with arguments not its call\'s is refused: %s', (_name, tool, request) => {
    expect(refusalOfGrant(grantOf(tool), request)).toMatch(/not part of the admitted|was not admitted for/);
  });
});
