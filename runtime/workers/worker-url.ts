import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The one place the runtime names worker files. When the runtime itself runs from TypeScript source (vitest), the
 * compiled worker next to it does not exist, so fall back to the build in dist/.
 */
export function workerFileUrl(relative: string): URL {
  const beside = new URL(`../../workers/${relative}`, import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  return new URL(`../../dist/workers/${relative}`, import.meta.url);
}
