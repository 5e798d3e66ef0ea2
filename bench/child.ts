import { execFile } from 'node:child_process';

/** Runs a program to completion (no shell) and resolves with its stdout; exit code 1 (e.g. grep's "no match") is not an error. */
export function runProgram(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) => {
      if (error && error.code !== 1) reject(error);
      else resolve(stdout);
    });
  });
}

/** Number of non-empty lines of a program's output. */
export function countLines(output: string): number {
  return output.split('\n').filter((line) => line !== '').length;
}
