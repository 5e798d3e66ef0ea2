import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolwardenError } from './errors.js';

/** The package's own name and version, read from its package.json once, so the CLI and the MCP server never drift. */
export interface PackageInfo {
  readonly name: string;
  readonly version: string;
  /** The optional framework packages and the version ranges the adapters support. */
  readonly peerDependencies: Readonly<Record<string, string>>;
}

/**
 * Finds toolwarden's package.json from this module, upwards: it is one directory up from src/ when run from source
 * and two from dist/src/ when built, so a fixed relative path would be right in only one of them.
 */
function readPackageInfo(): PackageInfo {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const { name, version, peerDependencies = {} } = JSON.parse(text) as { name?: unknown; version?: unknown; peerDependencies?: Record<string, string> };
      if (name === 'toolwarden' && typeof version === 'string') return Object.freeze({ name, version, peerDependencies: Object.freeze({ ...peerDependencies }) });
    }
    if (path.dirname(dir) === dir) throw new ToolwardenError('INTERNAL', `toolwarden's package.json not found above ${fileURLToPath(import.meta.url)}`);
  }
}

/** toolwarden's name, version and peer dependencies from its package.json. */
export const PACKAGE_INFO: PackageInfo = readPackageInfo();
