import { ToolwardenError } from '../../src/errors.js';

/** Runs `fn` and returns the ToolwardenError it throws; fails the test when it throws nothing or something else. */
export function catchToolwardenError(fn: () => unknown): ToolwardenError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ToolwardenError) return error;
    throw error;
  }
  throw new Error('expected a ToolwardenError, but nothing was thrown');
}
