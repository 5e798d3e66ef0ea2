import { describe, expect, it } from 'vitest';
import { DEFAULT_ZYGOTE_SETTINGS, ZygoteSlots, zygoteSettingsOf } from '../../runtime/sandbox/zygote-slots.js';

describe('zygoteSettingsOf', () => {
  it.each([
    [undefined, DEFAULT_ZYGOTE_SETTINGS],
    [true, DEFAULT_ZYGOTE_SETTINGS],
    [false, undefined],
    [{}, DEFAULT_ZYGOTE_SETTINGS],
    [{ max: 4 }, { max: 4, idleMs: DEFAULT_ZYGOTE_SETTINGS.idleMs }],
    [{ idleMs: 500, max: 1 }, { max: 1, idleMs: 500 }],
  ])('%j -> %j', (option, settings) => {
    expect(zygoteSettingsOf(option)).toEqual(settings);
  });

  it.each([
    ['yes', 'must be a boolean or { max, idleMs }, got string'],
    [[], 'got an array'],
    [null, 'got object'],
    [{ max: 0 }, 'sandboxZygote.max must be an integer >= 1, got 0'],
    [{ max: 1.5 }, 'sandboxZygote.max must be an integer >= 1'],
    [{ idleMs: Number.NaN }, 'sandboxZygote.idleMs must be an integer >= 1, got NaN'],
    [{ idleMs: '10' }, 'sandboxZygote.idleMs must be an integer >= 1'],
    [{ maxx: 2 }, "unknown sandboxZygote option 'maxx'"],
    [{ __proto__: null, constructor: 1 }, "unknown sandboxZygote option 'constructor'"],
  ])('%j is INVALID_OPTIONS', (option, message) => {
    expect(() => zygoteSettingsOf(option)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(message) }));
  });
});

describe('ZygoteSlots', () => {
  it('hands out at most max slots and takes them back', () => {
    const slots = new ZygoteSlots({ max: 2, idleMs: 1 });
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
