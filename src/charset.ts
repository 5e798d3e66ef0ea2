import iconv from 'iconv-lite';
import { ToolwardenError } from './errors.js';

/** The environment variable that pins the shell output encoding when no session option does. */
export const SHELL_ENCODING_ENV = 'TOOLWARDEN_SHELL_ENCODING';

/** What {@link resolveShellCharset} may look at; injected so the choice stays a pure function. */
export interface CharsetProbe {
  /** The host platform (`process.platform`). */
  platform: NodeJS.Platform;
  /** The host environment; only {@link SHELL_ENCODING_ENV} is read. */
  env: Record<string, string | undefined>;
  /** The console's active code page (Windows `chcp`), or undefined when unknown. Called only on win32. */
  activeCodePage?: () => number | undefined;
  /** The system locale, e.g. `zh-CN` or `zh_CN.GBK`. Called only on win32 when the code page gave nothing. */
  systemLocale?: () => string | undefined;
}

/** Where the chosen encoding came from. */
export type CharsetSource = 'option' | 'env' | 'default' | 'codepage' | 'locale';

/** The encoding to decode shell output with (an iconv-lite name), its source, and any warning worth logging. */
export interface ResolvedCharset {
  encoding: string;
  source: CharsetSource;
  warning?: string;
}

// Windows code pages whose iconv-lite name is not simply `cp<N>`.
const CODE_PAGE_NAMES: Readonly<Record<number, string>> = {
  65001: 'utf-8',
  936: 'gbk',
  54936: 'gb18030',
  950: 'big5',
  932: 'shift_jis',
  949: 'euc-kr',
  51932: 'euc-jp',
  1200: 'utf-16le',
  1201: 'utf-16be',
  20866: 'koi8-r',
  21866: 'koi8-u',
  28591: 'iso-8859-1',
  28592: 'iso-8859-2',
  28595: 'iso-8859-5',
  28597: 'iso-8859-7',
  28605: 'iso-8859-15',
};

// Language (or language-region) to the console (OEM/ANSI) encoding Windows uses for it by default.
const LOCALE_NAMES: Readonly<Record<string, string>> = {
  'zh-cn': 'gbk',
  'zh-sg': 'gbk',
  'zh-hans': 'gbk',
  'zh-tw': 'big5',
  'zh-hk': 'big5',
  'zh-mo': 'big5',
  'zh-hant': 'big5',
  zh: 'gbk',
  ja: 'shift_jis',
  ko: 'euc-kr',
  ru: 'cp866',
  uk: 'cp866',
  th: 'windows-874',
};

/**
 * Chooses the encoding for shell stdout/stderr: the `shellEncoding` option, then {@link SHELL_ENCODING_ENV},
 * then UTF-8 off Windows; on Windows the active code page, then the system locale, then UTF-8.
 * An unsupported option throws `INVALID_OPTIONS`; an unsupported env value is skipped with a warning.
 * @example resolveShellCharset({}, { platform: 'win32', env: {}, activeCodePage: () => 936 }) // { encoding: 'gbk', source: 'codepage' }
 */
export function resolveShellCharset(opts: { shellEncoding?: string }, probe: CharsetProbe): ResolvedCharset {
  if (opts.shellEncoding !== undefined) {
    const name = opts.shellEncoding.trim().toLowerCase();
    if (!iconv.encodingExists(name)) {
      throw new ToolwardenError(
        'INVALID_OPTIONS',
        `shellEncoding "${opts.shellEncoding}" is not an encoding iconv-lite supports; use a name such as "utf-8", "gbk" or "cp437"`,
      );
    }
    return { encoding: name, source: 'option' };
  }
  const warnings: string[] = [];
  const fromEnv = probe.env[SHELL_ENCODING_ENV]?.trim().toLowerCase();
  if (fromEnv) {
    if (iconv.encodingExists(fromEnv)) return { encoding: fromEnv, source: 'env' };
    warnings.push(`${SHELL_ENCODING_ENV}="${probe.env[SHELL_ENCODING_ENV]}" is not an encoding iconv-lite supports; ignored`);
  }
  const resolved = probe.platform === 'win32' ? resolveWindowsCharset(probe, warnings) : undefined;
  const result: ResolvedCharset = resolved ?? { encoding: 'utf-8', source: 'default' };
  if (warnings.length > 0) result.warning = warnings.join('; ');
  return result;
}

/** The iconv-lite name for a Windows code page, or undefined when iconv-lite has no codec for it. */
export function encodingForCodePage(codePage: number): string | undefined {
  const windowsAnsi = codePage === 874 || (codePage >= 1250 && codePage <= 1258);
  const name = CODE_PAGE_NAMES[codePage] ?? (windowsAnsi ? `windows-${codePage}` : `cp${codePage}`);
  return iconv.encodingExists(name) ? name : undefined;
}

/** The iconv-lite name for a locale such as `zh-CN`, `zh_TW` or `ru_RU.KOI8-R`, or undefined when unknown. */
export function encodingForLocale(locale: string): string | undefined {
  const [tag = '', suffix] = locale.trim().toLowerCase().replace(/_/g, '-').split('.');
  if (suffix !== undefined && iconv.encodingExists(suffix)) return suffix;
  const parts = tag.split('-');
  for (let n = parts.length; n > 0; n--) {
    const name = LOCALE_NAMES[parts.slice(0, n).join('-')];
    if (name !== undefined) return name;
  }
  return undefined;
}

function resolveWindowsCharset(probe: CharsetProbe, warnings: string[]): ResolvedCharset | undefined {
  const codePage = probe.activeCodePage?.();
  if (codePage !== undefined) {
    const encoding = encodingForCodePage(codePage);
    if (encoding !== undefined) return { encoding, source: 'codepage' };
    warnings.push(`active code page ${codePage} has no iconv-lite codec; falling back`);
  }
  const locale = probe.systemLocale?.();
  if (locale !== undefined) {
    const encoding = encodingForLocale(locale);
    if (encoding !== undefined) return { encoding, source: 'locale' };
  }
  return undefined;
}
