import type { AuditEvent } from '../../src/audit/audit-event.js';

/** Receives each (redacted) event. */
export type AuditCallback = (event: AuditEvent) => void;

/** A pino-style logger: events are logged as `info(event, 'tool call')`. */
export interface AuditLogger {
  info(obj: object, msg?: string): void;
}

/** Shared by every target: whether to log args and results in full. */
export interface AuditCommon {
  /**
   * Log args and results unredacted.
   * @default false
   */
  full?: boolean;
}

/**
 * Where audit events go: a callback; `{ callback }`, `{ file }` (JSON lines, appended and flushed per event)
 * or `{ logger }`, each with `full?`; or a list of these, each receiving every event.
 * @example { file: '/var/log/toolwarden.jsonl' }
 */
export type AuditOption = AuditTarget | readonly AuditTarget[];

/** One place audit events go. */
export type AuditTarget =
  | AuditCallback
  | string
  | AuditLogger
  | (AuditCommon & { callback: AuditCallback })
  | (AuditCommon & {
      file: string;
      /**
       * fdatasync after each event, so a power loss keeps it (about 0.3 ms an event); without it an event
       * still reaches the OS before the call returns and survives a process crash.
       * @default true
       */
      fsync?: boolean;
    })
  | (AuditCommon & { logger: AuditLogger });
