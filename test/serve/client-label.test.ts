import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientLabel, MAX_CLIENT_LABEL_CHARS } from '../../src/serve/client-label.js';

describe("clientLabel: an MCP client's clientInfo as one line for the dashboard", () => {
  it.each([
    ['name and version', { name: 'claude-code', version: '2.1.0' }, 'claude-code 2.1.0'],
    ['a name without a version', { name: 'inspector' }, 'inspector'],
    ['a version that is not a string', { name: 'x', version: 3 }, 'x'],
    ['a newline drawing a second line', { name: 'good\nuser alice', version: '1' }, 'good user alice 1'],
    ['a bidi override reversing what follows', { name: 'abc\u202Eevil', version: '1' }, 'abc evil 1'],
    ['zero-width characters', { name: 'cla\u200Bude', version: '1' }, 'cla ude 1'],
    ['a line separator', { name: 'a\u2028b', version: '1' }, 'a b 1'],
    ['runs of whitespace', { name: '  my   client ', version: ' 1 ' }, 'my client 1'],
  ])('%s', (_name, info, expected) => {
    expect(clientLabel(info)).toBe(expected);
  });

  it.each([[undefined], [null], ['claude'], [{}], [{ name: 42 }], [{ name: '\u200B\n' }]])('none for %j', (info) => {
    expect(clientLabel(info)).toBeUndefined();
  });

  it('is bounded, one line, without control or format characters, whatever the client sends', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 50 }), (name, version) => {
        const label = clientLabel({ name, version });
        if (label === undefined) return;
        expect(label.length).toBeLessThanOrEqual(MAX_CLIENT_LABEL_CHARS);
        expect(label).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
        expect(label).toBe(label.trim());
        expect(label.endsWith('...') ? label.slice(0, -3) : label).not.toMatch(/[\uD800-\uDBFF]$/);
      }),
    );
  });
});
