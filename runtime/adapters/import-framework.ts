import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolwardenError } from '../../src/errors.js';
import { PACKAGE_INFO } from '../../src/package-info.js';

/** The packages framework-bound adapters load when called: optional peer dependencies of toolwarden. */
export const FRAMEWORK_PACKAGES = ['ai', '@langchain/core', '@openai/agents'] as const;

/** One of {@link FRAMEWORK_PACKAGES}. */
export type FrameworkPackage = (typeof FRAMEWORK_PACKAGES)[number];

const ADAPTERS_DIR = path.dirname(fileURLToPath(import.meta.url));

/**
 * Runs `load` (an `import()` of the framework) for `adapter`. When the framework is not installed, throws
 * FRAMEWORK_MISSING naming the package and the version range package.json's peerDependencies give it. Any other
 * failure, a framework that is installed but broken included, is thrown as it came.
 */
export async function importFramework<T>(adapter: string, pkg: FrameworkPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || isInstalled(pkg)) throw error;
    const range = PACKAGE_INFO.peerDependencies[pkg] ?? '*';
    throw new ToolwardenError('FRAMEWORK_MISSING', `${adapter} needs the ${pkg} package (${range}), which is not installed: npm install "${pkg}@${range}"`, { package: pkg, range });
  }
}

/** Whether a node_modules folder on the way up from the adapters holds the package: where Node looks for it. */
function isInstalled(pkg: string): boolean {
  for (let dir = ADAPTERS_DIR; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'node_modules', pkg, 'package.json'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}
