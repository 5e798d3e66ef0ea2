import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCredentialMask } from '../../src/net/egress/credential-mask.js';

// A per-user MCP connection masks its tenant's secrets with the one credential mask, each under `${user.<name>}`.
const createSecretMask = (secrets: Record<string, string>): (<T>(value: T) => T) =>
  createCredentialMask(Object.entries(secrets).map(([name, value]) => ({ value, placeholder: `\${user.${name}}` }))).value;

const SECRET = 's3cr3t-Value/42+x';
const mask = createSecretMask({ token: SECRET });
const P = '${user.token}';

function base64At(value: string, offset: number, url = false): string {
  const bytes = Buffer.from(value);
  const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString(url ? 'base64url' : 'base64');
  return text.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}
function everyByte(value: string, upper = false): string {
  const text = [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  return upper ? text.toUpperCase() : text;
}

/** Every form of `value` the mask promises to catch. */
const FORMS: [string, (value: string) => string][] = [
  ['as written', (v) => v],
  ['percent-encoded', (v) => encodeURIComponent(v)],
  ['percent-encoded in lower case', (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())],
  ['every byte percent-encoded', (v) => everyByte(v)],
  ['every byte percent-encoded in upper case', (v) => everyByte(v, true)],
  ['form-encoded (space as +)', (v) => new URLSearchParams({ v }).toString().slice(2)],
  ...[0, 1, 2].flatMap((offset): [string, (value: string) => string][] => [
    [`base64 at offset ${offset}`, (v) => base64At(v, offset)],
    [`base64url at offset ${offset}`, (v) => base64At(v, offset, true)],
  ]),
];

describe('the credential mask of a per-user MCP connection: one walk over everything a server sends back', () => {
  it.each([
    ['a string', `x ${SECRET} y`, `x ${P} y`],
    ['an object key', { [SECRET]: 1 }, { [P]: 1 }],
    ['a key inside a key', { [`a${SECRET}b`]: { [SECRET]: SECRET } }, { [`a${P}b`]: { [P]: P } }],
    ['array items, deeply', [[[`${SECRET}`]], { a: [SECRET] }], [[[P]], { a: [P] }]],
    ['a __proto__ key holding it', JSON.parse(`{"__proto__": {"${SECRET}": "${SECRET}"}}`) as unknown, JSON.parse(`{"__proto__": {"${P}": "${P}"}}`) as unknown],
    ['base64 of a header built around it', Buffer.from(`user:${SECRET}`).toString('base64'), undefined],
    ['percent-encoded in a query', `https://x.test/?t=${encodeURIComponent(SECRET)}&u=1`, `https://x.test/?t=${P}&u=1`],
  ])('masks %s', (_name, value, expected) => {
    const masked = mask(value);
    if (expected !== undefined) expect(masked).toEqual(expected);
    expect(JSON.stringify(masked)).not.toContain(SECRET);
    for (const [, form] of FORMS) expect(JSON.stringify(masked)).not.toContain(form(SECRET));
  });

  it.each(FORMS)('masks the secret %s', (_name, form) => {
    expect(mask(`<${form(SECRET)}>`)).not.toContain(form(SECRET));
  });

  it('masks a number whose digits are a numeric secret', () => {
    expect(createSecretMask({ pin: '98765432' })({ n: 9876543210, m: 12 })).toEqual({ n: '${user.pin}10', m: 12 });
  });

  it('masks the longest of overlapping secrets first', () => {
    expect(createSecretMask({ short: 'abcdefgh', long: 'abcdefgh-ijkl' })('abcdefgh-ijkl abcdefgh')).toBe('${user.long} ${user.short}');
  });

  it.each([
    ['no secrets', {}],
    ['only empty values', { token: '' }],
  ])('with %s it gives the value back as it is', (_name, secrets) => {
    const value = { a: ['b', 1, null, true], '': 'x' };
    expect(createSecretMask(secrets)(value)).toBe(value);
  });

  it.each([
    ['a key holding only a part of the secret', { [SECRET.slice(0, 8)]: SECRET.slice(4) }],
    ['ordinary keys and base64 data', { token: 'ordinary', data: Buffer.from('hello world, not a secret').toString('base64') }],
    ['the secret with one character changed', `${SECRET.slice(0, -1)}y`],
    ['the secret in another case', SECRET.toUpperCase()],
    ['numbers, booleans and null', [1, 2.5, true, null]],
  ])('near miss: %s stays intact', (_name, value) => {
    expect(mask(value)).toEqual(value);
  });

  const secretArb = fc.string({ minLength: 6, maxLength: 40, unit: 'binary' }).filter((s) => s.trim() !== '' && !s.includes('\u0000'));

  it('property: a secret in any form, anywhere (key or value, any depth, any surrounding text) is masked', () => {
    fc.assert(
      fc.property(secretArb, fc.jsonValue(), fc.nat(FORMS.length - 1), fc.string(), fc.string(), fc.boolean(), fc.nat(4), (secret, value, formIndex, before, after, asKey, depth) => {
        const form = (FORMS[formIndex] as [string, (value: string) => string])[1](secret);
        fc.pre(!P.replace('token', 's').includes(form));
        const leaked = `${before}${form}${after}`;
        let tree: unknown = asKey ? { [leaked]: value } : { value, leaked };
        for (let i = 0; i < depth; i++) tree = i % 2 === 0 ? [tree] : { [`level${i}`]: tree };
        const masked = JSON.stringify(createSecretMask({ s: secret })(tree));
        expect(masked).not.toContain(JSON.stringify(form).slice(1, -1));
      }),
      { numRuns: 300 },
    );
  });

  it('property: a value holding no form of the secret comes back equal', () => {
    fc.assert(
      fc.property(secretArb, fc.jsonValue(), (secret, value) => {
        const text = JSON.stringify(value);
        fc.pre(FORMS.every(([, form]) => !text.includes(JSON.stringify(form(secret)).slice(1, -1))));
        expect(createSecretMask({ s: secret })(value)).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});

// The MCP mask is the egress mask (src/net/egress/credential-mask.ts): the forms a web server echoes are caught in
// what an MCP server sends back too.
describe('the MCP mask knows the forms a web server echoes', () => {
  it.each([
    ['JSON-escaped', JSON.stringify(SECRET).slice(1, -1).replaceAll('/', '\\/')],
    ['JSON \\u escapes', [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['HTML character references', [...SECRET].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')],
    ['base64 of the percent-encoded value', Buffer.from(encodeURIComponent(SECRET)).toString('base64')],
  ])('masks the secret %s', (_name, form) => {
    expect(mask(`<${form}>`)).not.toContain(form);
  });
});
