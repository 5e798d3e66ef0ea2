import { ToolwardenError } from '../../src/errors.js';
import { resolveTenant, type TenantsOption } from '../../src/tenants/index.js';

/** What a slot is taken for: the session's id (its token's) and its user. */
export interface SlotClaim {
  readonly sid: string;
  readonly user: string | undefined;
  /** Opened from a token: a token opens one live session at a time (the replay rule). */
  readonly fromToken: boolean;
}

/**
 * The runtime's session quotas and replay rule, over sessions open and being opened: at most `maxSessions` in all and
 * the tenant's (or `maxSessionsPerUser`) per user, and one live session per token id. A slot is taken before the
 * first await of an open, so concurrent opens cannot all pass the same check, and given back when the open fails or
 * the session closes.
 */
export class SessionSlots {
  readonly #maxSessions: number;
  readonly #maxPerUser: number | undefined;
  readonly #tenants: TenantsOption | undefined;
  /** Slots held, by session id, with their user. */
  readonly #held = new Map<string, string | undefined>();
  readonly #perUser = new Map<string, number>();

  constructor(options: { maxSessions: number; maxSessionsPerUser: number | undefined; tenants: TenantsOption | undefined }) {
    this.#maxSessions = options.maxSessions;
    this.#maxPerUser = options.maxSessionsPerUser;
    this.#tenants = options.tenants;
  }

  /** Slots held (sessions open or opening). */
  get size(): number {
    return this.#held.size;
  }

  /** Takes a slot; TOKEN_INVALID for a token already bound to a live session, SESSION_LIMIT past a quota. */
  take(claim: SlotClaim): void {
    if (this.#held.has(claim.sid)) {
      if (claim.fromToken) throw new ToolwardenError('TOKEN_INVALID', `token ${claim.sid} is already bound to an open session; mint a new one`);
      throw new ToolwardenError('INVALID_OPTIONS', `session ${claim.sid} is already open`);
    }
    if (this.#held.size >= this.#maxSessions) {
      throw new ToolwardenError('SESSION_LIMIT', `the runtime already has ${this.#maxSessions} open sessions (maxSessions)`);
    }
    const { user } = claim;
    if (user !== undefined) {
      const perUser = resolveTenant(this.#tenants, user)?.maxSessions ?? this.#maxPerUser;
      const open = this.#perUser.get(user) ?? 0;
      if (perUser !== undefined && open >= perUser) {
        throw new ToolwardenError('SESSION_LIMIT', `user '${user}' already has ${open} open sessions (maxSessions per user is ${perUser})`);
      }
      this.#perUser.set(user, open + 1);
    }
    this.#held.set(claim.sid, user);
  }

  /** Gives a slot back; false when none was held for `sid`. */
  release(sid: string): boolean {
    if (!this.#held.has(sid)) return false;
    const user = this.#held.get(sid);
    this.#held.delete(sid);
    if (user !== undefined) {
      const left = (this.#perUser.get(user) ?? 1) - 1;
      if (left === 0) this.#perUser.delete(user);
      else this.#perUser.set(user, left);
    }
    return true;
  }

  /** Whether a slot is held for some session of `user`. */
  holdsUser(user: string): boolean {
    return this.#perUser.has(user);
  }
}
