/**
 * How many orchestrator runs a probe runner has in flight: each spawns worker processes, and
 * more than a couple at once on a small machine only makes every worker miss its start-up
 * deadline. Some runs must be alone (the timing runs of §11: hold times are stamped on this
 * process's event loop, which other runs' set-up work would delay). First come, first served: a
 * run waiting to be alone holds back the runs queued after it, so it cannot be starved.
 */
export class Limiter {
  private active = 0;
  private exclusive = false;
  private readonly waiting: { readonly alone: boolean; readonly start: () => void }[] = [];

  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** `task` in one of the slots. */
  shared<T>(task: () => Promise<T>): Promise<T> {
    return this.enter(false, task);
  }

  /** `task` with nothing else of this limiter in flight (it may itself run several things at once). */
  alone<T>(task: () => Promise<T>): Promise<T> {
    return this.enter(true, task);
  }

  private async enter<T>(alone: boolean, task: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.waiting.push({ alone, start });
      this.pump();
    });
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.exclusive = false;
      this.pump();
    }
  }

  private pump(): void {
    while (this.waiting.length > 0 && !this.exclusive) {
      const next = this.waiting[0]!;
      if (next.alone ? this.active > 0 : this.active >= this.limit) return;
      this.waiting.shift();
      this.active += 1;
      this.exclusive = next.alone;
      next.start();
    }
  }
}
