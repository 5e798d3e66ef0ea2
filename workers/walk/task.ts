import { toPlainError } from '../../src/errors.js';
import type { GlobOutcome, GlobRequest, GrepOutcome, GrepRequest, WalkTaskResult } from '../../src/walk/types.js';
import { globFiles } from './glob-files.js';
import { grepFiles } from './grep-files.js';

// The piscina task file: each export is a task name. Failures come back as plain data because a
// ToolwardenError thrown here would reach the main thread without its class or code.

/** Runs a grep in this pool thread. */
export function grep(request: GrepRequest): WalkTaskResult<GrepOutcome> {
  return settle(() => grepFiles(request));
}

/** Runs a glob in this pool thread. */
export function glob(request: GlobRequest): WalkTaskResult<GlobOutcome> {
  return settle(() => globFiles(request));
}

function settle<T>(run: () => T): WalkTaskResult<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error: toPlainError(error) };
  }
}
