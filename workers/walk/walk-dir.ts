import { closeSync, constants, existsSync, openSync, readdirSync, readlinkSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

const OPEN_DIR = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
let throughDescriptor: boolean | undefined;

// Asked on first use, not at import, as in runtime/fs/verified-dir.ts (workers/ does not import runtime/).
function isThroughDescriptor(): boolean {
  if (throughDescriptor === undefined) {
    try {
      throughDescriptor = process.platform === 'linux' && existsSync('/proc/self/fd');
    } catch {
      throughDescriptor = false;
    }
  }
  return throughDescriptor;
}

/** A directory opened for the walk: its entries, and how to name one of them for opening. */
export interface WalkDir {
  readonly entries: Dirent[];
  /** A path that opens entry `name` of this very directory (through its descriptor on Linux). */
  entryPath(name: string): string;
  close(): void;
}

/**
 * Opens the directory whose real path is `real` for reading its entries. On Linux it is opened without following a
 * final link and used only when its descriptor's real path is still `real` (a component swapped for a link to the
 * outside after the walk listed it is skipped, not walked); its entries are read, and its files opened, through
 * `/proc/self/fd/<fd>`. Elsewhere the path is read by name. Returns undefined when it cannot be read.
 */
export function openWalkDir(real: string): WalkDir | undefined {
  if (!isThroughDescriptor()) {
    try {
      return { entries: readdirSync(real, { withFileTypes: true }), entryPath: (name) => join(real, name), close: () => {} };
    } catch {
      return undefined;
    }
  }
  let fd: number;
  try {
    fd = openSync(real, OPEN_DIR);
  } catch {
    return undefined;
  }
  try {
    const self = `/proc/self/fd/${fd}`;
    if (readlinkSync(self) !== real) throw new Error('swapped');
    const entries = readdirSync(self, { withFileTypes: true });
    return { entries, entryPath: (name) => `${self}/${name}`, close: () => closeSync(fd) };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** Whether an open descriptor's file is still at `real` (always true off Linux, where it cannot be told). */
export function isStillAt(fd: number, real: string): boolean {
  if (!isThroughDescriptor()) return true;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === real;
  } catch {
    return false;
  }
}
