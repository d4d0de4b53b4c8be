/**
 * Racing work against an abort signal: the caller stops waiting the moment the
 * signal fires, whether or not the work (a model call that ignores its signal,
 * a tool) ever settles.
 * @module
 */

/** Settles with `work`, or rejects with the signal's reason as soon as it fires, whether or not `work` ever settles. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  // A late rejection of abandoned work must not surface as an unhandled rejection.
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
