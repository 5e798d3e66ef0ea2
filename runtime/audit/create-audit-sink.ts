import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { ToolwardenError } from '../../src/errors.js';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { redactEvent } from '../../src/audit/redact.js';
import type { AuditLogger, AuditOption, AuditTarget } from './audit-option.js';

/** Records audit events; emitting never throws into the tool call. */
export interface AuditSink {
  /** Redacts (unless `full`) and records one event. */
  emit(event: AuditEvent): void;
  /** Releases the file, if any; later events are dropped (reported by the one warning). */
  close(): Promise<void>;
}

type Write = (event: AuditEvent) => void;

/**
 * Builds the sink for `createRuntime({ audit })`. A file is opened now (append, mode 0600), so a bad path
 * fails at startup; a failing callback, logger or write is reported once as a process warning and never
 * breaks the call.
 * @throws ToolwardenError `INVALID_OPTIONS` for an unknown option shape or a file that cannot be opened.
 * @example createAuditSink({ file: 'audit.jsonl' }).emit(event)
 */
export function createAuditSink(option: AuditOption | undefined): AuditSink {
  if (Array.isArray(option)) return fanOut((option as readonly AuditTarget[]).map((target) => createTargetSink(target)));
  return createTargetSink(option as AuditTarget | undefined);
}

/** Every sink gets every event, each redacted by its own `full`; a failing one does not starve the others. */
function fanOut(sinks: readonly AuditSink[]): AuditSink {
  return {
    emit: (event) => sinks.forEach((sink) => sink.emit(event)),
    close: async () => void (await Promise.all(sinks.map((sink) => sink.close()))),
  };
}

function createTargetSink(option: AuditTarget | undefined): AuditSink {
  if (option === undefined) return { emit: () => undefined, close: async () => undefined };
  if (typeof option === 'function') return guardSink(option, false, () => undefined);
  // A path alone is a JSON-lines file, and a pino-style logger may be passed as it is.
  if (typeof option === 'string') {
    if (option === '') throw invalid('audit file path must not be empty');
    return openFileSink(option, true, false);
  }
  if (isLogger(option)) return guardSink((event) => option.info(event, 'tool call'), false, () => undefined);
  if (typeof option !== 'object' || option === null) throw invalid(`audit must be a function or an object, got ${typeof option}`);
  const full = option.full ?? false;
  if (typeof full !== 'boolean') throw invalid('audit.full must be a boolean');
  if ('callback' in option && typeof option.callback === 'function') return guardSink(option.callback, full, () => undefined);
  if ('logger' in option && typeof option.logger?.info === 'function') {
    const logger = option.logger;
    return guardSink((event) => logger.info(event, 'tool call'), full, () => undefined);
  }
  if ('file' in option && typeof option.file === 'string' && option.file !== '') {
    return openFileSink(option.file, option.fsync ?? true, full);
  }
  throw invalid('audit must be a callback, { callback }, { file: string } or { logger: { info() } }');
}

function openFileSink(file: string, fsync: boolean, full: boolean): AuditSink {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'a', 0o600);
  } catch (error) {
    throw invalid(`audit.file '${file}' cannot be opened for appending: ${(error as Error).message}`);
  }
  const write: Write = (event) => {
    if (fd === undefined) throw new Error('the audit file is closed');
    writeSync(fd, `${JSON.stringify(event)}\n`);
    if (fsync) fdatasyncSync(fd);
  };
  return guardSink(write, full, () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  });
}

function guardSink(write: Write, full: boolean, release: () => void): AuditSink {
  let warned = false;
  return {
    emit(event) {
      try {
        write(redactEvent(event, full));
      } catch (error) {
        // Auditing must not change a call's outcome; one warning keeps a broken sink visible without flooding.
        if (!warned) process.emitWarning(`toolwarden audit sink failed, events may be lost: ${(error as Error)?.message ?? String(error)}`, { code: 'TOOLWARDEN_AUDIT' });
        warned = true;
      }
    },
    close: async () => release(),
  };
}

function invalid(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_OPTIONS', message);
}

function isLogger(value: unknown): value is AuditLogger {
  return typeof value === 'object' && value !== null && !('logger' in value) && typeof (value as { info?: unknown }).info === 'function';
}
