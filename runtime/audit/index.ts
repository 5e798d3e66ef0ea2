export { createAuditSink } from './create-audit-sink.js';
export type { AuditSink } from './create-audit-sink.js';
export type { AuditCallback, AuditCommon, AuditLogger, AuditOption, AuditTarget } from './audit-option.js';
