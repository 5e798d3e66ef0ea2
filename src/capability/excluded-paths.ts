import path from 'node:path';
import { ToolwardenError } from '../errors.js';

/**
 * An `excludedPaths` entry as the capability stores it: workspace-relative, `/`-separated, no trailing slash.
 * Refuses (INVALID_OPTIONS) empty entries, the root itself, absolute paths and paths climbing out with `..`.
 */
export function normalizeExcludedPath(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.includes('\0')) {
    throw new ToolwardenError('INVALID_OPTIONS', `${where} must be an array of non-empty strings`);
  }
  const normalized = path.posix.normalize(value.replaceAll('\\', '/')).replace(/\/+$/, '');
  if (normalized === '' || normalized === '.' || normalized.startsWith('../') || normalized === '..' || path.posix.isAbsolute(normalized) || path.win32.isAbsolute(normalized)) {
    throw new ToolwardenError('INVALID_OPTIONS', `${where} entry '${value}' must be a path inside the workspace, relative to its root`);
  }
  return normalized;
}
