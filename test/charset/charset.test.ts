import { describe, expect, it } from 'vitest';
import { encodingForLocale, resolveShellCharset, SHELL_ENCODING_ENV, type CharsetProbe } from '../../src/charset.js';

const never = (): never => {
  throw new Error('probe must not be called');
};

describe('resolveShellCharset', () => {
  it.each<[string, { shellEncoding?: string }, CharsetProbe, { encoding: string; source: string }]>([
    ['the option wins over env and platform', { shellEncoding: 'GBK' }, { platform: 'win32', env: { [SHELL_ENCODING_ENV]: 'big5' }, activeCodePage: never }, { encoding: 'gbk', source: 'option' }],
    ['env wins over the code page', {}, { platform: 'win32', env: { [SHELL_ENCODING_ENV]: 'utf8' }, activeCodePage: never }, { encoding: 'utf8', source: 'env' }],
    ['non-Windows is utf-8 and never probes', {}, { platform: 'linux', env: {}, activeCodePage: never, systemLocale: never }, { encoding: 'utf-8', source: 'default' }],
    ['Windows code page 936 is gbk', {}, { platform: 'win32', env: {}, activeCodePage: () => 936, systemLocale: never }, { encoding: 'gbk', source: 'codepage' }],
    ['Windows code page 65001 is utf-8', {}, { platform: 'win32', env: {}, activeCodePage: () => 65001 }, { encoding: 'utf-8', source: 'codepage' }],
    ['Windows code page 437 is cp437', {}, { platform: 'win32', env: {}, activeCodePage: () => 437 }, { encoding: 'cp437', source: 'codepage' }],
    ['Windows code page 1252 is windows-1252', {}, { platform: 'win32', env: {}, activeCodePage: () => 1252 }, { encoding: 'windows-1252', source: 'codepage' }],
    ['Windows code page 949 is euc-kr', {}, { platform: 'win32', env: {}, activeCodePage: () => 949 }, { encoding: 'euc-kr', source: 'codepage' }],
    ['Windows code page 850 is cp850', {}, { platform: 'win32', env: {}, activeCodePage: () => 850 }, { encoding: 'cp850', source: 'codepage' }],
    ['Windows code page 950 is big5', {}, { platform: 'win32', env: {}, activeCodePage: () => 950 }, { encoding: 'big5', source: 'codepage' }],
    ['Windows code page 932 is shift_jis', {}, { platform: 'win32', env: {}, activeCodePage: () => 932 }, { encoding: 'shift_jis', source: 'codepage' }],
    ['Windows without a code page uses the locale', {}, { platform: 'win32', env: {}, activeCodePage: () => undefined, systemLocale: () => 'zh-CN' }, { encoding: 'gbk', source: 'locale' }],
    ['Windows with an unknown locale falls back to utf-8', {}, { platform: 'win32', env: {}, activeCodePage: () => undefined, systemLocale: () => 'en-US' }, { encoding: 'utf-8', source: 'default' }],
    ['Windows with no probes falls back to utf-8', {}, { platform: 'win32', env: {} }, { encoding: 'utf-8', source: 'default' }],
    ['a blank env value is ignored', {}, { platform: 'linux', env: { [SHELL_ENCODING_ENV]: '  ' } }, { encoding: 'utf-8', source: 'default' }],
  ])('%s', (_name, opts, probe, expected) => {
    const result = resolveShellCharset(opts, probe);
    expect(result).toEqual(expected);
  });

  it.each(['klingon-8', '', 'utf-9'])('throws INVALID_OPTIONS naming an unsupported option %j', (shellEncoding) => {
    expect(() => resolveShellCharset({ shellEncoding }, { platform: 'linux', env: {} })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(`"${shellEncoding}"`) }),
    );
  });

  it('warns about an unsupported env value and continues down the chain', () => {
    const result = resolveShellCharset({}, { platform: 'win32', env: { [SHELL_ENCODING_ENV]: 'klingon-8' }, activeCodePage: () => 936 });
    expect(result).toMatchObject({ encoding: 'gbk', source: 'codepage', warning: expect.stringContaining('klingon-8') });
  });

  it('warns about a code page without a codec and falls back to the locale', () => {
    const result = resolveShellCharset({}, { platform: 'win32', env: {}, activeCodePage: () => 12345, systemLocale: () => 'ja-JP' });
    expect(result).toMatchObject({ encoding: 'shift_jis', source: 'locale', warning: expect.stringContaining('12345') });
  });
});

describe('encodingForLocale', () => {
  it.each([
    ['zh-CN', 'gbk'],
    ['zh_TW', 'big5'],
    ['zh-Hant-HK', 'big5'],
    ['ko-KR', 'euc-kr'],
    ['zh_CN.UTF-8', 'utf-8'],
    ['ru_RU.KOI8-R', 'koi8-r'],
    ['en-US', undefined],
    ['', undefined],
  ])('%j -> %s', (locale, expected) => {
    expect(encodingForLocale(locale)).toBe(expected);
  });
});
