import path from 'node:path';
import { ToolwardenError } from '../errors.js';
import { isInside } from '../path-guard/index.js';

/** The filesystem reach of a session, or of a tenant's bound: canonical absolute paths. */
export interface FilesystemReach {
  workspaceRoot: string;
  readRoots: readonly string[];
  allowOutsideWorkspace: boolean;
}

/** A tenant's filesystem bound with its roots made canonical; an unset workspace root bounds no workspace. */
export interface TenantFilesystemBound {
  workspaceRoot?: string;
  readRoots?: readonly string[];
  allowOutsideWorkspace?: boolean;
}

/**
 * Checks that a session of a tenant's user only narrows the tenant's filesystem reach: its workspace is the
 * tenant's or a directory inside it; each read root lies inside the tenant's workspace or one of its read roots
 * (when the tenant sets either); outside access only when the tenant grants it. Every path must already be
 * canonical (realpath'ed), so a symlink cannot spell its way out.
 * @throws ToolwardenError ESCALATION naming the user, the field and the tenant's bound.
 */
export function assertFilesystemWithinTenant(reach: FilesystemReach, bound: TenantFilesystemBound, user: string | undefined): void {
  const who = `user '${user ?? '(none)'}'`;
  const escalation = (message: string): never => {
    throw new ToolwardenError('ESCALATION', `${who} ${message}`);
  };
  const inside = (inner: string, root: string): boolean => isInside(inner, root, path);
  if (bound.workspaceRoot !== undefined && !inside(reach.workspaceRoot, bound.workspaceRoot)) {
    escalation(`asked for workspaceRoot '${reach.workspaceRoot}' outside the tenant's workspaceRoot '${bound.workspaceRoot}'`);
  }
  if (bound.workspaceRoot !== undefined || bound.readRoots !== undefined) {
    const roots = [...(bound.workspaceRoot === undefined ? [] : [bound.workspaceRoot]), ...(bound.readRoots ?? [])];
    reach.readRoots.forEach((root, i) => {
      if (!roots.some((allowed) => inside(root, allowed))) {
        escalation(`asked for readRoots[${i}] '${root}' outside the tenant's workspaceRoot and readRoots (${roots.join(', ') || 'none'})`);
      }
    });
  }
  if (reach.allowOutsideWorkspace && bound.allowOutsideWorkspace !== true) {
    escalation("asked for allowOutsideWorkspace: true beyond the tenant's allowOutsideWorkspace (false)");
  }
}
