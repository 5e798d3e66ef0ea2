import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What a tool host process may read: toolwarden's build, the package.json files that give its modules their type,
 * the packages toolwarden depends on (transitively), and for each host tool module its directory, its package.json
 * and that package's dependencies. Nothing else: no home directory, no workspace (the broker reads for the tools).
 */
export function collectReadPaths(distDir: string, moduleUrls: readonly string[]): string[] {
  const paths = new Set<string>([fs.realpathSync(distDir)]);
  const roots = [path.dirname(distDir)];
  for (const url of moduleUrls) {
    if (!url.startsWith('file:')) continue;
    const file = fs.realpathSync(fileURLToPath(url));
    paths.add(path.dirname(file));
    roots.push(path.dirname(file));
  }
  for (const root of roots) {
    const manifest = findPackageJson(root);
    if (!manifest) continue;
    paths.add(manifest);
    // A node_modules that is a symlink (a git worktree sharing its checkout's) is looked up through the link's name.
    const modules = path.join(path.dirname(manifest), 'node_modules');
    if (fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink() === true) paths.add(modules);
    for (const dir of dependencyDirs(path.dirname(manifest))) paths.add(dir);
  }
  return [...paths];
}

/** The nearest package.json at or above `dir`. */
function findPackageJson(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'package.json');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

/** Real directories of every package `packageDir` depends on, transitively, as Node's resolution would find them. */
function dependencyDirs(packageDir: string): string[] {
  const found = new Set<string>();
  const pending = [packageDir];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const name of declaredDependencies(dir)) {
      const located = locatePackage(dir, name);
      if (located && !found.has(located)) {
        found.add(located);
        pending.push(located);
      }
    }
  }
  return [...found];
}

function declaredDependencies(packageDir: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const names = ['dependencies', 'optionalDependencies', 'peerDependencies'].flatMap((field) => {
    const entries = manifest[field];
    return typeof entries === 'object' && entries !== null ? Object.keys(entries) : [];
  });
  return [...new Set(names)];
}

/** `node_modules/<name>` looked up from `fromDir` upwards; undefined when not installed (optional or peer). */
function locatePackage(fromDir: string, name: string): string | undefined {
  for (let current = fromDir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(current) === current) return undefined;
  }
}
