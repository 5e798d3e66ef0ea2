import { ToolwardenError, type ErrorCode } from '../../src/errors.js';

const ERRNO_RULES: Readonly<Record<string, readonly [ErrorCode, string]>> = {
  ENOENT: ['NOT_FOUND', 'no such file or directory'],
  ELOOP: ['SYMLINK_LOOP', 'it became a symlink after it was checked; symlinks are not followed here'],
  EMLINK: ['SYMLINK_LOOP', 'it became a symlink after it was checked; symlinks are not followed here'],
  EISDIR: ['CONFLICT', 'it is a directory'],
  ENOTDIR: ['CONFLICT', 'a parent is not a directory'],
  EEXIST: ['CONFLICT', 'it already exists'],
  EACCES: ['IO_ERROR', 'permission denied'],
  EPERM: ['IO_ERROR', 'operation not permitted'],
};

/** Turns a Node fs error into a ToolwardenError naming the action, the path and the reason; ToolwardenErrors pass through. */
export function toFsError(error: unknown, action: string, p: string): ToolwardenError {
  if (error instanceof ToolwardenError) return error;
  const errno = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const rule = ERRNO_RULES[errno];
  if (rule) return new ToolwardenError(rule[0], `cannot ${action} ${p}: ${rule[1]}`);
  return new ToolwardenError('IO_ERROR', `cannot ${action} ${p}: ${error instanceof Error ? error.message : String(error)}`);
}
