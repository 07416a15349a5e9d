/** Watches the event loop from inside it: a loop blocked by synchronous work shows as one long gap between ticks. */
export function watchLoopGaps(everyMs = 10): { worst(): number; stop(): void } {
  let last = performance.now();
  let worst = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, everyMs);
  return { worst: () => worst, stop: () => clearInterval(ticker) };
}
