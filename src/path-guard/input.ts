import type { PlatformPath } from 'node:path';
import { ToolwardenError } from '../errors.js';
import { isWin32, splitPath, stripDevicePrefix } from './segments.js';

const WIN32_RESERVED_NAME = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\s*\..*)?$/i;
const WIN32_SHORT_NAME = /^[^~]{1,6}~[0-9]{1,6}(\.[^.]{0,3})?$/;
const WIN32_DRIVE_RELATIVE = /^[a-zA-Z]:(?![\\/])/;

/**
 * Validates raw path input and makes it absolute against `base`, normalized for the flavour.
 * Throws INVALID_ARGS for non-strings, empty strings, NUL bytes and win32 spellings whose meaning differs
 * between the guard and Windows (see {@link checkWin32Segments}).
 */
export function toAbsolutePath(input: unknown, base: string, flavour: PlatformPath): string {
  if (typeof input !== 'string') throw new ToolwardenError('INVALID_ARGS', `path must be a string, got ${input === null ? 'null' : typeof input}`);
  if (input === '') throw new ToolwardenError('INVALID_ARGS', 'path must not be empty');
  if (input.includes('\0')) throw new ToolwardenError('INVALID_ARGS', `path ${JSON.stringify(input)} contains a NUL byte`);
  if (!isWin32(flavour)) return flavour.resolve(base, input);
  const stripped = stripDevicePrefix(input, flavour);
  if (stripped === undefined) {
    throw new ToolwardenError('INVALID_ARGS', `path ${JSON.stringify(input)} is a win32 device-namespace path; use a drive or UNC path`);
  }
  if (WIN32_DRIVE_RELATIVE.test(stripped)) {
    throw new ToolwardenError('INVALID_ARGS', `path ${JSON.stringify(input)} is drive-relative (like C:foo); use C:\\foo or a workspace-relative path`);
  }
  checkWin32Segments(input, splitPath(stripped, flavour).segments);
  return flavour.resolve(base, stripped);
}

// Windows drops trailing dots and spaces (so `...\..` climbs one level more than it looks), reads `name:stream`
// as an alternate data stream, maps reserved names to devices and resolves 8.3 short names (GIT~1 for .git):
// each would make the guard check a different file than Windows opens, so such segments are refused.
function checkWin32Segments(input: string, segments: readonly string[]): void {
  for (const segment of segments) {
    const rule =
      segment === '..' ? undefined
      : /[. ]$/.test(segment) ? 'ends with a dot or a space, which Windows strips'
      : segment.includes(':') ? 'contains ":" (an alternate data stream)'
      : WIN32_RESERVED_NAME.test(segment) ? 'is a reserved device name'
      : WIN32_SHORT_NAME.test(segment) ? 'looks like an 8.3 short name; use the long name'
      : undefined;
    if (rule) throw new ToolwardenError('INVALID_ARGS', `path ${JSON.stringify(input)}: segment ${JSON.stringify(segment)} ${rule}`);
  }
}
