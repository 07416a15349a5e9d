/**
 * Watches the event loop from inside it. `ticks()` counts the watcher's callbacks: work that
 * blocks the loop lets none run until it is done, so a zero count while that work was in flight
 * says it ran on the loop — whatever the machine's speed. `worst()` is the longest gap between
 * ticks, for reporting only: on a loaded machine it grows with the load, not with what is tested.
 */
export function watchLoopGaps(everyMs = 10): { worst(): number; ticks(): number; stop(): void } {
  let last = performance.now();
  let worst = 0;
  let ticks = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
    ticks++;
  }, everyMs);
  return { worst: () => worst, ticks: () => ticks, stop: () => clearInterval(ticker) };
}
