/**
 * The run's queue: p-queue with a waiting line that knows whose task each one is. A free slot goes
 * to the adapter with the fewest tasks running (builds and items alike), and among those to the
 * highest priority, first come first. So on a run narrower than its adapters, each slot carries a
 * different adapter, one worker each, and an adapter takes a second slot only when no other one has
 * work waiting (the run's tail, or a run of one adapter).
 *
 * Why: ranked adapter by adapter alone, both slots of a 2-wide run went to one adapter's items, and
 * each adapter started a second worker for them: a process start per adapter that a run of many
 * adapters does not need, since another adapter's item could use the slot on its own worker
 * (docs/performance.md, "The TypeScript matrix against its bounds").
 */
import PQueue, { type QueueAddOptions } from "p-queue";

/** What a waiting task carries besides its function and priority (higher starts first among adapters equally busy). */
type RunTaskOptions = QueueAddOptions & {
  /** The adapter the task runs on: its count of running tasks decides first. */
  readonly group?: string;
};

interface Waiting {
  readonly run: () => Promise<unknown>;
  readonly priority: number;
  readonly seq: number;
  readonly id: string | undefined;
}

/**
 * The waiting line, one sorted list per group (priority high to low, then arrival). A dequeue looks
 * at each group's head only, so it costs the number of adapters, not of waiting items.
 */
class GroupedLine {
  readonly #lines = new Map<string, Waiting[]>();
  #seq = 0;
  #size = 0;
  readonly #running: ReadonlyMap<string, number>;

  constructor(running: ReadonlyMap<string, number>) {
    this.#running = running;
  }

  get size(): number {
    return this.#size;
  }

  enqueue(run: () => Promise<unknown>, options?: Partial<RunTaskOptions>): void {
    const group = options?.group ?? "";
    const entry: Waiting = { run, priority: options?.priority ?? 0, seq: this.#seq++, id: options?.id };
    let line = this.#lines.get(group);
    if (!line) this.#lines.set(group, (line = []));
    // Most tasks of a group share one priority, so appending is the usual case.
    let at = line.length;
    while (at > 0 && line[at - 1]!.priority < entry.priority) at--;
    line.splice(at, 0, entry);
    this.#size++;
  }

  dequeue(): (() => Promise<unknown>) | undefined {
    let best: { group: string; head: Waiting; busy: number } | undefined;
    for (const [group, line] of this.#lines) {
      const head = line[0]!;
      const busy = this.#running.get(group) ?? 0;
      if (!best || busy < best.busy || (busy === best.busy && (head.priority > best.head.priority || (head.priority === best.head.priority && head.seq < best.head.seq)))) {
        best = { group, head, busy };
      }
    }
    if (!best) return undefined;
    this.#take(best.group, 0);
    return best.head.run;
  }

  filter(options: Readonly<Partial<RunTaskOptions>>): Array<() => Promise<unknown>> {
    return [...this.#lines.values()].flat().filter((w) => w.priority === options.priority).map((w) => w.run);
  }

  setPriority(id: string, priority: number): void {
    for (const [group, line] of this.#lines) {
      const index = line.findIndex((w) => w.id === id);
      if (index === -1) continue;
      const entry = line[index]!;
      this.#take(group, index);
      this.enqueue(entry.run, { group, priority, id });
      return;
    }
    throw new ReferenceError(`No promise function with the id "${id}" exists in the queue.`);
  }

  remove(idOrRun: string | (() => Promise<unknown>)): void {
    for (const [group, line] of this.#lines) {
      const index = line.findIndex((w) => (typeof idOrRun === "string" ? w.id === idOrRun : w.run === idOrRun));
      if (index !== -1) return this.#take(group, index);
    }
  }

  #take(group: string, index: number): void {
    const line = this.#lines.get(group)!;
    // The head is the usual case, and V8 shifts a long array without moving what follows.
    if (index === 0) line.shift();
    else line.splice(index, 1);
    if (line.length === 0) this.#lines.delete(group);
    this.#size--;
  }
}

export class RunQueue {
  readonly #running = new Map<string, number>();
  readonly #queue: PQueue<GroupedLine, RunTaskOptions>;

  /** `concurrency` slots; nothing starts before {@link start}, so the first slots go by rank too. */
  constructor(concurrency: number) {
    const running = this.#running;
    this.#queue = new PQueue<GroupedLine, RunTaskOptions>({
      concurrency,
      autoStart: false,
      queueClass: class extends GroupedLine {
        constructor() {
          super(running);
        }
      },
    });
  }

  /**
   * Queues `task` for `group` (its adapter). The group's running count goes up as the task starts
   * and down inside the task's own promise, so the slot it frees is handed out on the new count.
   */
  add<T>(group: string, task: () => Promise<T>, priority = 0): Promise<T> {
    return this.#queue.add(
      async () => {
        this.#running.set(group, (this.#running.get(group) ?? 0) + 1);
        try {
          return await task();
        } finally {
          const left = this.#running.get(group)! - 1;
          if (left === 0) this.#running.delete(group);
          else this.#running.set(group, left);
        }
      },
      { priority, group },
    ) as Promise<T>;
  }

  start(): void {
    this.#queue.start();
  }
}
