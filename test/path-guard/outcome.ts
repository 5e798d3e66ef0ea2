import { ToolwardenError } from '../../src/errors.js';

/** Runs a guard call and reports its error code, or `ok` plus the path it returned. */
export function outcome(call: () => string): { code: string; path?: string } {
  try {
    return { code: 'ok', path: call() };
  } catch (error) {
    if (error instanceof ToolwardenError) return { code: error.code };
    throw error;
  }
}
