import { isBuiltin } from 'node:module';
import { initSync, parse } from 'es-module-lexer';

/** What an import specifier of a tool module names, for the read allowlist of its tool process. */
export type SpecifierTarget =
  | { readonly kind: 'file'; readonly specifier: string }
  | { readonly kind: 'package'; readonly name: string }
  | { readonly kind: 'none' };

// `require('x')` with a string literal, in a module without import or export syntax (CommonJS).
const REQUIRE_CALL = /\brequire\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;

/**
 * The specifiers a module's source names as string literals: static imports and re-exports, `import('x')`, and for
 * CommonJS (`.cjs`, or no module syntax at all) `require('x')`. A specifier built at run time is not seen: the module
 * then cannot read what it names.
 */
export function moduleSpecifiers(source: string, commonJs: boolean): string[] {
  initSync();
  let imports: readonly { readonly n: string | undefined }[] = [];
  let hasModuleSyntax = false;
  try {
    [imports, , , hasModuleSyntax] = parse(source);
  } catch {
    // Not lexable as a module (CommonJS that uses a reserved word, say): only its require calls count.
  }
  const found = imports.flatMap((entry) => (entry.n === undefined ? [] : [entry.n]));
  if (commonJs || !hasModuleSyntax) for (const match of source.matchAll(REQUIRE_CALL)) found.push(match[2]!);
  return [...new Set(found)];
}

/**
 * What `specifier` names: a file (relative, absolute or `file:`), a package (a bare name, `@scope/name`, with any
 * subpath), or nothing to grant (a builtin, `node:`, `data:`, a URL, or a `#` package import, which is not followed).
 */
export function specifierTarget(specifier: string): SpecifierTarget {
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/') || specifier.startsWith('file:')) return { kind: 'file', specifier };
  if (specifier.startsWith('#') || isBuiltin(specifier) || /^[a-z][a-z0-9+.-]*:/i.test(specifier)) return { kind: 'none' };
  const parts = specifier.split('/');
  const nameParts = parts.slice(0, specifier.startsWith('@') ? 2 : 1);
  // node_modules/<name> must stay inside node_modules: no empty, `.` or `..` segment, no scope without a name.
  if (nameParts.length < (specifier.startsWith('@') ? 2 : 1) || nameParts.some((s) => s === '' || s === '.' || s === '..')) return { kind: 'none' };
  return { kind: 'package', name: nameParts.join('/') };
}
