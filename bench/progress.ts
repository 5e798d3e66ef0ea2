const started = performance.now();

/** Writes one progress line to stderr (stdout stays for the report), stamped with the seconds since start. */
export function progress(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[${seconds}s] ${message}\n`);
}
