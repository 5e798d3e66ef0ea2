export type { AuditEvent } from './audit-event.js';
export { REDACT_OVER_CHARS, SUMMARY_KEEP_CHARS, redactArgs, redactEvent, summarizeResult } from './redact.js';
export { APPROVAL_RULES, PATH_GUARD_CODES, auditOutcome, guardRefusalOf, pathGuardRule, type WorkRefusal } from './audit-outcome.js';
