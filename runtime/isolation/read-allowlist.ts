import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleSpecifiers, specifierTarget } from '../../src/isolation/module-specifiers.js';

/**
 * What a tool host process may read: toolwarden's build, its package.json and the packages it depends on
 * (transitively); and for the host tool modules, the module graph they run: each module file, the files it imports
 * by path (followed in turn), and the root of each package it imports with that package's dependencies. Never the
 * folder around a module: a `.env` beside it, or the host project it sits in, stays unreadable. Nothing else either:
 * no home directory, no workspace (the broker reads for the tools).
 */
export function collectReadPaths(distDir: string, moduleUrls: readonly string[]): string[] {
  const paths = new Set<string>([fs.realpathSync(distDir)]);
  const manifest = findPackageJson(path.dirname(distDir));
  if (manifest !== undefined) {
    paths.add(manifest);
    addDependencies(paths, path.dirname(manifest));
  }
  // Each module as reached (its URL, then relative to that) and as it really is: Node resolves imports from the real
  // path, but inside the sandbox, where the reached path is mounted as a plain directory, from the reached one.
  const pending = moduleUrls.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
  const visited = new Set<string>();
  for (let reached = pending.pop(); reached !== undefined; reached = pending.pop()) {
    const real = realpathOrUndefined(reached);
    if (real === undefined || visited.has(reached) || !fs.statSync(real).isFile()) continue;
    visited.add(reached);
    paths.add(reached);
    paths.add(real);
    // Node reads the package.json of a `.js` module's scope to learn whether it is ESM (its "type").
    const scope = real.endsWith('.js') ? findPackageJson(path.dirname(real)) : undefined;
    if (scope !== undefined) paths.add(scope);
    for (const specifier of moduleSpecifiers(fs.readFileSync(real, 'utf8'), real.endsWith('.cjs'))) {
      const target = specifierTarget(specifier);
      for (const from of new Set([reached, real])) {
        if (target.kind === 'file') pending.push(fileURLToPath(new URL(target.specifier, pathToFileURL(from))));
        else if (target.kind === 'package') addPackage(paths, path.dirname(from), target.name);
      }
    }
  }
  return [...paths];
}

/** A package `name` as Node finds it from `fromDir`: its root (real and as reached), and its dependencies. */
function addPackage(paths: Set<string>, fromDir: string, name: string): void {
  const located = locatePackage(fromDir, name);
  if (located === undefined) return;
  for (const link of located.links) paths.add(link);
  paths.add(located.root);
  addDependencies(paths, located.root);
}

/** The real directories of every package `packageDir` depends on, transitively, and the links Node reaches them by. */
function addDependencies(paths: Set<string>, packageDir: string): void {
  const pending = [packageDir];
  const found = new Set<string>();
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const name of declaredDependencies(dir)) {
      const located = locatePackage(dir, name);
      if (located === undefined || found.has(located.root)) continue;
      found.add(located.root);
      for (const link of located.links) paths.add(link);
      paths.add(located.root);
      pending.push(located.root);
    }
  }
}

/** The nearest package.json at or above `dir`. */
function findPackageJson(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'package.json');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

function declaredDependencies(packageDir: string): string[] {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return [];
  }
  const names = ['dependencies', 'optionalDependencies', 'peerDependencies'].flatMap((field) => {
    const entries = manifest[field];
    return typeof entries === 'object' && entries !== null ? Object.keys(entries) : [];
  });
  return [...new Set(names)];
}

/**
 * `node_modules/<name>` looked up from `fromDir` upwards, as Node does: its real root, and the symlinks Node passes
 * on the way from that node_modules (a node_modules shared by a git worktree, a package linked in), which the sandbox
 * recreates as links and Node's permission model checks as reached. Undefined when not installed (optional or peer).
 * A package `fromDir` itself belongs to (a self-reference) is not found here: its files count only as imported.
 */
function locatePackage(fromDir: string, name: string): { links: string[]; root: string } | undefined {
  for (let current = fromDir; ; current = path.dirname(current)) {
    const modules = path.join(current, 'node_modules');
    const candidate = path.join(modules, name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) {
      // Only links from the node_modules down: a link above it (the project's folder) would open the folder itself.
      const steps = [modules, ...name.split('/').map((_s, i, all) => path.join(modules, ...all.slice(0, i + 1)))];
      const links = steps.filter((step) => fs.lstatSync(step, { throwIfNoEntry: false })?.isSymbolicLink() === true);
      return { links, root: fs.realpathSync(candidate) };
    }
    if (path.dirname(current) === current) return undefined;
  }
}

function realpathOrUndefined(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}
