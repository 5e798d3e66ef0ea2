/** Entry names a walk skips at any depth unless `includeIgnored` is set: VCS data and installed packages. */
export const IGNORED_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Whether a walk should skip the entry `name` (a file, directory or link of that name). */
export function isIgnoredName(name: string, includeIgnored: boolean): boolean {
  return !includeIgnored && IGNORED_NAMES.has(name);
}
