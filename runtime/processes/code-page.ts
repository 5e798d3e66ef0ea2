import { execFileSync } from 'node:child_process';
import type { CharsetProbe } from '../../src/charset.js';

/** The code page in `chcp` output, whatever the UI language ("Active code page: 936", "活动代码页: 936"). */
export function parseChcpOutput(output: string): number | undefined {
  const match = /(\d+)\s*\.?\s*$/.exec(output.trim());
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** Runs `chcp` to read the console's active code page; undefined off Windows or when it fails. */
export function probeActiveCodePage(platform: NodeJS.Platform = process.platform): number | undefined {
  if (platform !== 'win32') return undefined;
  try {
    const output = execFileSync('cmd.exe', ['/d', '/c', 'chcp'], { encoding: 'latin1', timeout: 5_000, windowsHide: true });
    return parseChcpOutput(output);
  } catch {
    return undefined;
  }
}

/** The host's {@link CharsetProbe}: its platform and env, `chcp` for the code page, Intl for the locale. */
export function createHostCharsetProbe(): CharsetProbe {
  return {
    platform: process.platform,
    env: process.env,
    activeCodePage: () => probeActiveCodePage(),
    systemLocale: () => Intl.DateTimeFormat().resolvedOptions().locale,
  };
}
