import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCredentialMask, MIN_BASE64_FORM } from '../../src/net/egress/credential-mask.js';

const VALUE = 'ghp_S3cr3t/Val+ue=é&"x';
const PH = 'toolwarden-credential-GH-0123456789abcdef0123456789abcdef';
const mask = createCredentialMask([{ value: VALUE, placeholder: PH }]);
const hex = (c: string, upper: boolean): string => [...Buffer.from(c)].map((b) => `%${b.toString(16).padStart(2, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('');
const b64 = (text: string, url = false): string => Buffer.from(text).toString(url ? 'base64url' : 'base64');

// Every form a server may echo a value in, alone and inside other text.
const FORMS: ReadonlyArray<readonly [string, string]> = [
  ['as written', VALUE],
  ['percent-encoded', encodeURIComponent(VALUE)],
  ['percent-encoded, lower-case hex', encodeURIComponent(VALUE).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
  ['every character percent-encoded', [...VALUE].map((c) => hex(c, true)).join('')],
  ['some characters percent-encoded', [...VALUE].map((c, i) => (i % 2 === 0 ? hex(c, false) : c)).join('')],
  ['form-encoded (space as +)', 'x'],
  ['JSON', JSON.stringify(VALUE).slice(1, -1)],
  ['JSON with escaped slashes', JSON.stringify(VALUE).slice(1, -1).replaceAll('/', '\\/')],
  ['JSON \\u escapes', [...VALUE].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join('')],
  ['HTML hex references', [...VALUE].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')],
  ['HTML decimal references', [...VALUE].map((c) => `&#${c.charCodeAt(0)};`).join('')],
  ['HTML named entities', VALUE.replace('&', '&amp;').replace('"', '&quot;')],
  ['base64', b64(VALUE)],
  ['base64url', b64(VALUE, true)],
  ['inside Basic, aligned', b64(`abc:${VALUE}`.slice(1))],
  ['inside Basic, one byte in', b64(`a:${VALUE}`)],
  ['inside Basic, two bytes in', b64(`ab:${VALUE}`)],
  ['inside base64url JSON', b64(JSON.stringify({ token: VALUE }), true)],
];

/** Whether `text` still holds the value in some form (decoding what can be decoded). */
function reveals(text: string): boolean {
  const html = text.replace(/&#x([0-9a-f]+);/gi, (_e, h: string) => String.fromCodePoint(parseInt(h, 16))).replace(/&#(\d+);/g, (_e, d: string) => String.fromCodePoint(Number(d))).replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  const decoded = [text, html, safe(() => decodeURIComponent(text)), safe(() => JSON.parse(`"${text}"`) as string)];
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}={0,2}/g) ?? []) for (const offset of [0, 1, 2, 3]) decoded.push(Buffer.from(run.slice(offset), 'base64').toString('latin1'), Buffer.from(run.slice(offset), 'base64').toString());
  return decoded.some((d) => d !== undefined && (d.includes(VALUE) || d.includes(JSON.stringify(VALUE).slice(1, -1))));
}

function safe(f: () => string): string | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

describe('credential mask: every form of the value becomes the placeholder', () => {
  it.each(FORMS.filter(([name]) => name !== 'form-encoded (space as +)'))('%s', (_name, form) => {
    for (const text of [form, `before ${form} after`, `${form}${form}`]) {
      expect(reveals(text), 'the fixture itself reveals the value').toBe(true);
      const masked = mask.text(text);
      expect(reveals(masked), masked).toBe(false);
      expect(reveals(mask.bytes(Buffer.from(text)).toString()), 'bytes').toBe(false);
      expect(reveals(mask.latin1(Buffer.from(text).toString('latin1'))), 'latin1').toBe(false);
    }
  });

  it('puts the placeholder where the value was, and its base64 where the base64 was', () => {
    expect(mask.text(`Bearer ${VALUE}`)).toBe(`Bearer ${PH}`);
    expect(mask.text(`key=${encodeURIComponent(VALUE)}&b=1`)).toBe(`key=${PH}&b=1`);
    expect(mask.text(b64(VALUE))).toContain(b64(PH).slice(0, 40));
  });

  it('form encoding: a space written as +', () => {
    const spaced = createCredentialMask([{ value: 'a secret value', placeholder: 'PH' }]);
    expect(spaced.text('q=a+secret+value')).toBe('q=PH');
  });

  it('every secret of a session, each by its own placeholder', () => {
    const two = createCredentialMask([{ value: 'first-secret-1', placeholder: 'P1' }, { value: 'second-secret-2', placeholder: 'P2' }]);
    expect(two.text('first-secret-1 second-secret-2')).toBe('P1 P2');
  });
});

describe('near misses: nothing else changes', () => {
  it.each([
    ['text without the value', 'hello world, no secrets here'],
    ['the value with one character changed', VALUE.replace('S', 's')],
    ['the value cut short', VALUE.slice(0, -1)],
    ['the placeholder itself', PH],
    ['binary bytes', Buffer.from(Array.from({ length: 256 }, (_, i) => i)).toString('latin1')],
  ])('%s', (_name, text) => {
    expect(mask.latin1(text)).toBe(text);
  });

  it(`a value too short for its base64 to be told from chance (stable part under ${MIN_BASE64_FORM}) is masked only as written and escaped`, () => {
    const short = createCredentialMask([{ value: 'ab12', placeholder: 'P' }]);
    expect(short.text('ab12 ab%31%32')).toBe('P P');
    expect(short.text(b64('ab12'))).toBe(b64('ab12'));
  });

  // One threshold for egress, web_fetch and MCP: a 5-byte value's base64 (6 stable characters) is masked at every alignment.
  it.each([0, 1, 2])('a 5-byte value is masked in base64 starting %i bytes into the encoded text', (offset) => {
    const encoded = b64(`${'x'.repeat(offset)}abc12`).slice(Math.ceil((8 * offset) / 6));
    expect(createCredentialMask([{ value: 'abc12', placeholder: 'P' }]).text(encoded)).not.toContain(encoded.slice(0, 6));
  });

  it.each([
    ['a string', `a ${VALUE} b`, `a ${PH} b`],
    ['an object key and value, deeply', [{ x: { [VALUE]: [`<${VALUE}>`] } }], [{ x: { [PH]: [`<${PH}>`] } }]],
    ['a __proto__ key', JSON.parse(`{"__proto__": {"k": ${JSON.stringify(VALUE)}}}`) as unknown, JSON.parse(`{"__proto__": {"k": "${PH}"}}`) as unknown],
    ['a number whose digits hold a value', { n: 12345678901, m: 12 }, { n: '1N901', m: 12 }],
  ])('value(): masks %s', (_name, input, expected) => {
    const both = createCredentialMask([{ value: VALUE, placeholder: PH }, { value: '2345678', placeholder: 'N' }]);
    expect(both.value(input)).toEqual(expected);
  });

  it('value(): what holds no value comes back as the same object', () => {
    const input = { a: ['b', 1, null, true], '': 'x' };
    expect(mask.value(input)).toEqual(input);
    expect(createCredentialMask([]).value(input)).toBe(input);
  });

  it('a session without credentials passes everything through', () => {
    const none = createCredentialMask([]);
    expect(none.text(VALUE)).toBe(VALUE);
    const stream = none.stream();
    expect(Buffer.concat([stream.push(Buffer.from(VALUE)), stream.end()]).toString()).toBe(VALUE);
  });
});

describe('streaming: a value split across chunks is still found', () => {
  const text = Buffer.from(`lead ${FORMS.map(([, form]) => form).join(' mid ')} tail`);

  it('one byte at a time, and the result equals masking the whole', () => {
    const stream = mask.stream();
    const out = Buffer.concat([...text].map((b) => stream.push(Uint8Array.of(b))).concat(stream.end()));
    expect(out.toString('latin1')).toBe(mask.latin1(text.toString('latin1')));
  });

  it('property: any chunking gives the same bytes as masking the whole', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: text.length }), { maxLength: 20 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const stream = mask.stream();
        const parts: Buffer[] = [];
        let at = 0;
        for (const point of [...points, text.length]) {
          parts.push(stream.push(text.subarray(at, point)));
          at = point;
        }
        parts.push(stream.end());
        expect(Buffer.concat(parts).toString('latin1')).toBe(mask.latin1(text.toString('latin1')));
      }),
      { numRuns: 300, seed: 29 },
    );
  });

  it('property: generated values are masked in every form, in generated surroundings', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 40, unit: 'grapheme-ascii' }), fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), (value, before, after) => {
        const m = createCredentialMask([{ value, placeholder: 'PLACEHOLDER' }]);
        for (const form of [value, encodeURIComponent(value), b64(value), b64(value, true), JSON.stringify(value).slice(1, -1)]) {
          expect(m.text(`${before}${form}${after}`)).not.toContain(form);
        }
      }),
      { numRuns: 300, seed: 2929 },
    );
  });
});
