import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { ToolwardenError } from '../../src/errors.js';
import { PATH_RULES, PathRefusal, type CheckedPath } from '../../src/path-guard/index.js';
import { getFdRealPath } from './fd-path.js';
import { toFsError } from './fs-error.js';

/** A predicate over the real path an fd reached, e.g. from {@link createWriteCheck}; false refuses the file. */
export type IsAllowed = (realPath: string) => boolean;

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// O_NONBLOCK keeps a FIFO from blocking the broker's thread in open(); regular files ignore it.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Opens a checked path and proves the fd is still allowed, closing the check-then-open race:
 * the open refuses a final component swapped for a symlink (O_NOFOLLOW, SYMLINK_LOOP), then the fd's real path
 * (`/proc/self/fd/N` on Linux) must pass `isAllowed` (else NOT_READABLE for reads, OUTSIDE_WORKSPACE for writes),
 * which catches a parent directory swapped for a link. `read` opens a file or directory; `write` opens an existing
 * regular file without truncating it (create files with {@link writeFileAtomic}). FIFOs, sockets and devices are
 * refused (UNSUPPORTED_FILE). The fd is closed on every refusal; the caller closes it otherwise.
 */
export function openVerified(checked: CheckedPath, mode: 'read' | 'write', isAllowed: IsAllowed): number {
  return openVerifiedWithStat(checked, mode, isAllowed).fd;
}

/** {@link openVerified}, also returning the descriptor's stat (saves the caller an fstat). */
export function openVerifiedWithStat(checked: CheckedPath, mode: 'read' | 'write', isAllowed: IsAllowed): { fd: number; stat: Stats } {
  const flags = (mode === 'read' ? constants.O_RDONLY : constants.O_WRONLY) | O_NOFOLLOW | O_NONBLOCK;
  let fd: number;
  try {
    fd = openSync(checked, flags);
  } catch (error) {
    throw toFsError(error, `open for ${mode}`, checked);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() && !(mode === 'read' && stat.isDirectory())) {
      throw new ToolwardenError('UNSUPPORTED_FILE', `cannot open ${checked} for ${mode}: it is not a regular file (a FIFO, socket or device)`);
    }
    const real = getFdRealPath(fd, checked);
    if (!isAllowed(real)) {
      throw new PathRefusal(mode === 'read' ? 'NOT_READABLE' : 'OUTSIDE_WORKSPACE', checked, PATH_RULES.changed(mode));
    }
    return { fd, stat };
  } catch (error) {
    closeSync(fd);
    throw toFsError(error, `open for ${mode}`, checked);
  }
}
