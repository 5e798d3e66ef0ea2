/** Where a command writes: stdout for its output, stderr for logs, errors and usage. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The process's own streams. */
export const PROCESS_IO: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** Exit codes: 0 done, 1 failed (bad config, refused options), 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
