/**
 * Whether the canonical path `target` is one of `roots` or below one, compared by whole segments
 * (`/ws-evil` is not inside `/ws`). Both sides must already be real paths.
 */
export function isInsideRoots(target: string, roots: readonly string[], sep = '/'): boolean {
  for (const root of roots) {
    if (target === root) return true;
    const prefix = root.endsWith(sep) ? root : root + sep;
    if (target.startsWith(prefix)) return true;
  }
  return false;
}
