import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tool-api.js';

/** What a zod 3 object looks like from outside: `_def` and `safeParse`, no zod 4 `_zod`. */
const zod3Shaped = { _def: { typeName: 'ZodObject', shape: () => ({}) }, safeParse: (value: unknown) => ({ success: true, data: value }), parse: (value: unknown) => value };

describe('defineTool input schemas', () => {
  it('refuses a zod 3 schema with INVALID_OPTIONS saying zod 4 is required, naming the tool', () => {
    expect(() => defineTool({ name: 'legacy', description: 'd', input: zod3Shaped, run: () => 'x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/defineTool\(legacy\).*zod 4 required/) }),
    );
  });

  it.each([
    { kind: 'a zod 4 schema', input: z.object({ who: z.string() }) },
    { kind: 'a JSON Schema object', input: { type: 'object', properties: { _def: { type: 'string' } } } },
  ])('accepts $kind', ({ input }) => {
    expect(defineTool({ name: 'ok', description: 'd', input, run: () => 'x' }).name).toBe('ok');
  });
});
