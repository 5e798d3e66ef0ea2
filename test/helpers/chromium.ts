import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, which the browser tests drive (playwright-core downloads no browser). */
export const CHROMIUM_PATH = process.env['TOOLWARDEN_CHROMIUM'] ?? '/usr/bin/chromium';

/** Whether the browser tests can run here; when not, they are skipped with this reason. */
export const CHROMIUM_MISSING = existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set TOOLWARDEN_CHROMIUM): browser tests skipped`;

/** Launches headless Chromium as the tests and the screenshot script use it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'] });
}
