/**
 * A task on a p-queue whose slot outlives its result: the caller gets the result as soon as the
 * task has it, and the slot goes back to the queue only when the caller says so. A lane's first
 * build runs this way (lane.ts): the lane queues its items before the slot frees, so the slot goes
 * to them, not to the next task in rank that was already waiting (another adapter's build, whose
 * fresh worker the run's budget would then stop, or this lane's, to make room for those items).
 */
import type { RunQueue } from "./run-queue.ts";

export interface HeldSlot<T> {
  /** The task's result (or its error), as soon as it has one. */
  readonly result: Promise<T>;
  /** Frees the slot; idempotent. Call it on every way out, or the slot is never given back. */
  readonly release: () => void;
}

export function heldSlot<T>(queue: RunQueue, group: string, task: () => Promise<T>, priority: number): HeldSlot<T> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const result = new Promise<T>((resolve, reject) => {
    void queue.add(
      group,
      async () => {
        try {
          resolve(await task());
        } catch (err) {
          reject(err);
          return;
        }
        await released;
      },
      priority,
    );
  });
  return { result, release };
}
