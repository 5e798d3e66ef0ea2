/**
 * libc through koffi (an optional dependency with prebuilt binaries), for the few calls Node does not offer
 * (prctl, close_range). One place that loads it and says why it could not.
 */
export type Libc = ReturnType<typeof import('koffi').default.load>;

/** libc.so.6, or why it is not available here (not Linux, koffi missing or not loading). */
export async function loadLibc(): Promise<{ libc: Libc } | { failure: string }> {
  if (process.platform !== 'linux') return { failure: `it needs Linux (this is ${process.platform})` };
  try {
    const koffi = (await import('koffi')).default;
    return { libc: koffi.load('libc.so.6') };
  } catch (error) {
    return { failure: `the optional dependency koffi did not load libc: ${(error as Error).message}` };
  }
}
