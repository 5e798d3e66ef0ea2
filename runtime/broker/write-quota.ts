import { ToolwardenError } from '../../src/errors.js';

/** Bytes a session may still write through the file tools; 0 as the limit means unlimited. */
export class WriteQuota {
  readonly #limit: number;
  #used = 0;

  constructor(limitBytes: number) {
    this.#limit = limitBytes;
  }

  /** Bytes written so far. */
  get used(): number {
    return this.#used;
  }

  /** Throws WRITE_QUOTA_EXCEEDED when writing `bytes` more would pass the quota. */
  check(bytes: number, what: string): void {
    if (this.#limit > 0 && this.#used + bytes > this.#limit) {
      throw new ToolwardenError('WRITE_QUOTA_EXCEEDED', `writing ${bytes} bytes to ${what} would pass the session write quota (writeQuotaBytes=${this.#limit}, ${this.#used} used)`);
    }
  }

  /** Checks and records a write. */
  charge(bytes: number, what: string): void {
    this.check(bytes, what);
    this.#used += bytes;
  }
}
