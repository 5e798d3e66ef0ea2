import { ToolwardenError } from '../errors.js';
import type { Capability } from './capability.js';
import { CAPABILITY_FIELDS, type CapabilityField, type FieldContext, type FieldSpec, type NarrowDeps } from './fields.js';
import { narrowPaths } from './narrow-paths.js';
import type { NarrowRequest } from './narrow-request.js';

export { NARROW_REQUEST_KEYS, parseNarrowRequest, type NarrowRequest } from './narrow-request.js';
export type { NarrowDeps } from './fields.js';

/**
 * Computes a child capability that is at most its parent, field by field ({@link CAPABILITY_FIELDS}). Asking for
 * anything more throws `ESCALATION` naming it; a malformed request throws `INVALID_OPTIONS`. Paths in `request`
 * must already be canonical absolute paths.
 */
export function narrowCapability(parent: Capability, request: NarrowRequest, sid: string, deps: NarrowDeps): Capability {
  const escalate = (what: string): never => {
    throw new ToolwardenError('ESCALATION', `cannot widen the parent capability: ${what}`);
  };
  const paths = narrowPaths(parent, request, deps.flavour, escalate);
  const ctx: FieldContext = { parent, request, paths, deps, escalate };
  const fields = (Object.keys(CAPABILITY_FIELDS) as CapabilityField[]).flatMap((key) => {
    const { narrow } = CAPABILITY_FIELDS[key] as FieldSpec<CapabilityField>;
    const value = narrow === 'paths' ? paths[key as keyof typeof paths] : narrow(ctx);
    return value === undefined ? [] : [[key, value] as const];
  });
  return { sid, ...Object.fromEntries(fields) } as unknown as Capability;
}
