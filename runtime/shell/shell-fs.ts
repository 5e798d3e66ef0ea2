import fs from 'node:fs';
import type { ShellFs } from '../../src/shell/index.js';

/** The shell checker's read-only view of the real filesystem (lstat, readdir, readlink; nothing cached). */
export const nodeShellFs: ShellFs = {
  kind(p) {
    try {
      const st = fs.lstatSync(p);
      return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
    } catch {
      return null;
    }
  },
  list(p) {
    try {
      return fs.readdirSync(p);
    } catch {
      return null;
    }
  },
  readlink(p) {
    try {
      return fs.readlinkSync(p);
    } catch {
      return null;
    }
  },
};
