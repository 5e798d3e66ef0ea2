import { describe, expect, it } from 'vitest';
import { zygoteUsable } from '../../runtime/sandbox/run-self-test.js';
import { DEFAULT_ZYGOTE_SETTINGS, ZygoteSlots, zygoteSettingsOf } from '../../runtime/sandbox/zygote-slots.js';
import { buildSelfTestScript, selfTestProperties, type SelfTestCheck } from '../../src/sandbox/self-test.js';

describe('zygoteSettingsOf', () => {
  it.each([
    [undefined, DEFAULT_ZYGOTE_SETTINGS],
    [true, DEFAULT_ZYGOTE_SETTINGS],
    [false, undefined],
    [{}, DEFAULT_ZYGOTE_SETTINGS],
    [{ max: 4 }, { max: 4, idleMs: DEFAULT_ZYGOTE_SETTINGS.idleMs, allowZygoteMemoryWrites: false }],
    [{ idleMs: 500, max: 1 }, { max: 1, idleMs: 500, allowZygoteMemoryWrites: false }],
    [{ allowZygoteMemoryWrites: true }, { ...DEFAULT_ZYGOTE_SETTINGS, allowZygoteMemoryWrites: true }],
  ])('%j -> %j', (option, settings) => {
    expect(zygoteSettingsOf(option)).toEqual(settings);
  });

  it.each([
    ['yes', 'must be a boolean or { max, idleMs, allowZygoteMemoryWrites }, got string'],
    [[], 'got an array'],
    [null, 'got object'],
    [{ max: 0 }, 'sandboxZygote.max must be an integer >= 1, got 0'],
    [{ max: 1.5 }, 'sandboxZygote.max must be an integer >= 1'],
    [{ idleMs: Number.NaN }, 'sandboxZygote.idleMs must be an integer >= 1, got NaN'],
    [{ idleMs: '10' }, 'sandboxZygote.idleMs must be an integer >= 1'],
    [{ maxx: 2 }, "unknown sandboxZygote option 'maxx'"],
    [{ allowZygoteMemoryWrites: 'yes' }, 'sandboxZygote.allowZygoteMemoryWrites must be a boolean, got string'],
    [{ __proto__: null, constructor: 1 }, "unknown sandboxZygote option 'constructor'"],
  ])('%j is INVALID_OPTIONS', (option, message) => {
    expect(() => zygoteSettingsOf(option)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(message) }));
  });
});

describe('ZygoteSlots', () => {
  it('hands out at most max slots and takes them back', () => {
    const slots = new ZygoteSlots({ max: 2, idleMs: 1, allowZygoteMemoryWrites: false });
    expect([slots.take(), slots.take(), slots.take()]).toEqual([true, true, false]);
    expect(slots.used).toBe(2);
    slots.give();
    expect(slots.take()).toBe(true);
    slots.give();
    slots.give();
    slots.give();
    expect(slots.used).toBe(0);
  });
});

describe('the zygote memory property', () => {
  const targets = { canary: '/c', blockedDir: '/ws/.git/hooks', maxProcesses: 64, memoryBytes: 2 ** 30, cpuSeconds: 60, tmpBytes: 2 ** 26 };
  it('is proved only when a zygote runs the probe', () => {
    expect(selfTestProperties(targets)).not.toContain('zygote-memory-sealed');
    expect(selfTestProperties({ ...targets, zygotePid: 2 }).at(-1)).toBe('zygote-memory-sealed');
    expect(buildSelfTestScript({ ...targets, zygotePid: 2 })).toContain('/proc/2/mem');
    expect(buildSelfTestScript(targets)).not.toContain('/mem');
  });

  const checks = (sealed: boolean): SelfTestCheck[] => [
    { property: 'seccomp-active', passed: true, detail: 'Seccomp: 2' },
    { property: 'zygote-memory-sealed', passed: sealed, detail: '/proc/2/mem' },
  ];
  it('a writable zygote memory keeps zygotes off unless the host accepts it, and nothing else is waived', () => {
    expect(zygoteUsable(checks(true))).toBe(true);
    expect(zygoteUsable(checks(false))).toBe(false);
    expect(zygoteUsable(checks(false), true)).toBe(true);
    expect(zygoteUsable([{ property: 'seccomp-active', passed: false, detail: 'Seccomp: 0' }, ...checks(false).slice(1)], true)).toBe(false);
  });
});

describe('createRuntime sandboxZygote', () => {
  it('refuses a bad setting at createRuntime, naming it', async () => {
    const { createRuntime } = await import('../../runtime/index.js');
    await expect(createRuntime({ idleWorkers: 0, sandboxZygote: { max: 0 } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('sandboxZygote.max') });
  });
});

describe('a zygote start that throws before it starts', () => {
  it('gives its slot and stubs back, and the session keeps working with a bwrap per command (red-team: slot leak)', async () => {
    const { SessionZygote } = await import('../../runtime/sandbox/session-zygote.js');
    const slots = new ZygoteSlots({ max: 2, idleMs: 1000, allowZygoteMemoryWrites: false });
    const released: string[][] = [];
    const warnings: string[] = [];
    const zygote = new SessionZygote({
      support: { argv: () => [], command: () => ({}) } as never,
      start: () => Promise.reject(new Error('never reached')),
      hold: () => undefined,
      release: async (paths) => void released.push([...paths]),
      warn: (message) => void warnings.push(message),
      slots,
    });
    // A mount path the lstat refuses (ENAMETOOLONG), as a racing command could make one.
    const scope = { blockedInWorkspace: [`/tmp/${'x'.repeat(5000)}`], stubsInWorkspace: [] } as never;
    const guard = { existing: [], stubs: [], mounts: new Map() } as never;
    for (let i = 0; i < 4; i++) expect(await zygote.lease(guard, scope, ['/ws/.ssh'])).toBeUndefined();
    expect(slots.used).toBe(0);
    expect(released).toHaveLength(4);
    expect(warnings[0]).toContain('ENAMETOOLONG');
    await zygote.close();
  });
});
