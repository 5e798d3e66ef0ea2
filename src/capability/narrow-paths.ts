import type { PlatformPath } from 'node:path';
import { findReadOnlyRoot } from '../path-guard/deny-rules.js';
import { isInside } from '../path-guard/segments.js';
import type { Capability } from './capability.js';
import type { NarrowRequest } from './narrow-request.js';

/** The path fields of a capability, narrowed together because each depends on the child's root. */
export type PathFields = Pick<Capability, 'workspaceRoot' | 'allowOutsideWorkspace' | 'readRoots' | 'excludedPaths'>;

/**
 * Narrows the path fields. The child's root must be a directory the parent may write (inside its workspace, not
 * under one of its excluded paths or read-only roots). Every path the parent may not write stays unwritable:
 * the parent's excluded paths are re-rooted into the child's frame, and the parent's read roots that the child
 * could reach for writing are kept whatever the child asks for (reading them grants nothing new, since the child
 * can read its workspace, or everything when it may leave it).
 * Paths in `request` must be canonical absolute paths already, and its excluded paths normalized (parseNarrowRequest).
 */
export function narrowPaths(parent: Capability, request: NarrowRequest, flavour: PlatformPath, escalate: (what: string) => never): PathFields {
  const allowOutsideWorkspace = request.allowOutsideWorkspace ?? parent.allowOutsideWorkspace;
  if (allowOutsideWorkspace && !parent.allowOutsideWorkspace) escalate('allowOutsideWorkspace is false for the parent');

  const workspaceRoot = request.workspaceRoot ?? parent.workspaceRoot;
  if (!isInside(workspaceRoot, parent.workspaceRoot, flavour)) {
    escalate(`workspaceRoot '${workspaceRoot}' is outside the parent's '${parent.workspaceRoot}'`);
  }
  const parentExcluded = parent.excludedPaths.map((entry) => ({ entry, absolute: flavour.resolve(parent.workspaceRoot, entry) }));
  const under = parentExcluded.find(({ absolute }) => isInside(workspaceRoot, absolute, flavour));
  if (under !== undefined) escalate(`workspaceRoot '${workspaceRoot}' is under the parent's excluded path '${under.entry}'; give it as a read root instead`);
  const readOnly = findReadOnlyRoot(workspaceRoot, parent, flavour);
  if (readOnly !== undefined) escalate(`workspaceRoot '${workspaceRoot}' is in the parent's read-only root '${readOnly}'; give it as a read root instead`);

  const parentReadable = [parent.workspaceRoot, ...parent.readRoots];
  const requested = request.readRoots ?? parent.readRoots;
  for (const root of requested) {
    if (!parentReadable.some((r) => isInside(root, r, flavour))) escalate(`read root '${root}' is not readable to the parent`);
  }
  const kept = parent.readRoots.filter((root) => allowOutsideWorkspace || isInside(root, workspaceRoot, flavour));
  const readRoots = [...new Set([...requested, ...kept])];

  const reRooted = parentExcluded.flatMap(({ absolute }) => {
    const relative = flavour.relative(workspaceRoot, absolute);
    const outside = relative === '..' || relative.startsWith(`..${flavour.sep}`) || flavour.isAbsolute(relative);
    // Outside the child's root an exclusion only matters to a child that may write outside.
    return outside && !allowOutsideWorkspace ? [] : [relative.split(flavour.sep).join('/')];
  });
  // Normalized by parseNarrowRequest, at the boundary.
  const own = request.excludedPaths ?? [];
  return { workspaceRoot, allowOutsideWorkspace, readRoots, excludedPaths: [...new Set([...reRooted, ...own])] };
}
