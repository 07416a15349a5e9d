/**
 * Seats: a worker process may carry several items at once on a non-durable arena
 * (`--items-per-worker`), one per seat. As far as the harness is concerned a seat is what a worker
 * was before seats: it has its own runner per arena, built with its own tag and token (so its own
 * base URL, `<adapter>__<arena>__w3.s1`), and runs one leg at a time, with the item's own folder in
 * the worker's slot for that leg. The witness reads each leg off its seat's tag exactly as it read
 * a worker's, so nothing in witness/ knows about seats. What the seats of one process share is the
 * process itself: its memory, its private TMPDIR (emptied when no leg is in flight,
 * sandbox/private-area.ts) and its fate (a crash or a timed-out leg ends every seat's leg).
 *
 * A durable item takes a worker alone (every seat), because its pause SIGKILLs the process: a
 * worker never carries a durable item beside another one, and a durable resume still needs a
 * process that never saw the item (pool.ts).
 */
import type { Json, WorkItem } from "../../contract/protocol.ts";
import type { WorkerFailure } from "./failure.ts";
import type { LegOutcome } from "./worker-outcomes.ts";
import type { WorkerProcess } from "./worker-process.ts";

/** One item's place on a worker: what the item's driver (run/drive.ts) talks to. */
export class Seat {
  readonly worker: WorkerProcess;
  readonly index: number;

  constructor(worker: WorkerProcess, index: number) {
    this.worker = worker;
    this.index = index;
  }

  /** `w3` for seat 0 (a one-item worker's name, unchanged), `w3.s1` for the others: part of the gateway tag. */
  get id(): string {
    return seatName(this.worker.id, this.index);
  }

  get alive(): boolean {
    return this.worker.alive;
  }

  tagFor(arena: string): string | undefined {
    return this.worker.tagFor(arena, this.index);
  }

  gatewayFor(arena: string): string | undefined {
    return this.worker.gatewayFor(arena, this.index);
  }

  takeStrays(): string[] {
    return this.worker.takeStrays(this.index);
  }

  run(arena: string, item: WorkItem, deadlineMs: number, cell?: string): Promise<LegOutcome | WorkerFailure> {
    return this.worker.run(arena, item, deadlineMs, cell, this.index);
  }

  resume(arena: string, item: WorkItem, state: Json, decision: "approve" | "deny", deadlineMs: number, cell?: string): Promise<LegOutcome | WorkerFailure> {
    return this.worker.resume(arena, item, state, decision, deadlineMs, cell, this.index);
  }
}

export function seatName(workerId: string, index: number): string {
  return index === 0 ? workerId : `${workerId}.s${index}`;
}

/** Which seats of each worker are taken, and whether a worker is held alone (a durable item). */
export class Seating {
  readonly #taken = new Map<WorkerProcess, { readonly seats: Set<number>; alone: boolean }>();

  /** Seats taken on `worker` now. */
  busy(worker: WorkerProcess): number {
    return this.#taken.get(worker)?.seats.size ?? 0;
  }

  /**
   * A free seat of `worker` for a lane that allows `limit` seats per worker, preferring one whose
   * runner for `arena` is built; undefined when the worker is held alone or has none free.
   */
  freeSeat(worker: WorkerProcess, limit: number, arena: string): number | undefined {
    const taken = this.#taken.get(worker);
    if (taken?.alone) return undefined;
    const busy = taken?.seats.size ?? 0;
    // A lane of one seat per worker (durable) may only take a worker nobody else is on.
    if (busy >= limit || (limit === 1 && busy > 0)) return undefined;
    let first: number | undefined;
    for (let i = 0; i < limit; i += 1) {
      if (taken?.seats.has(i)) continue;
      if (worker.isBuiltFor(arena, i)) return i;
      first ??= i;
    }
    return first;
  }

  /** Take `index` on `worker` (before any await, so two acquires never get the same seat). */
  take(worker: WorkerProcess, index: number, alone: boolean): Seat {
    const taken = this.#taken.get(worker) ?? { seats: new Set<number>(), alone: false };
    if (taken.seats.has(index) || taken.alone) throw new Error(`seat ${seatName(worker.id, index)} is taken`);
    taken.seats.add(index);
    taken.alone = alone;
    this.#taken.set(worker, taken);
    return new Seat(worker, index);
  }

  /** Give `seat` back; true when its worker now carries nothing. */
  free(seat: Seat): boolean {
    const taken = this.#taken.get(seat.worker);
    if (!taken) return true;
    taken.seats.delete(seat.index);
    if (taken.seats.size > 0) return false;
    this.#taken.delete(seat.worker);
    return true;
  }

  forget(worker: WorkerProcess): void {
    this.#taken.delete(worker);
  }

  /** Workers carrying items beside which another may sit: taken, not alone, most items first (fill a worker before the next). */
  shared(): WorkerProcess[] {
    return [...this.#taken.entries()]
      .filter(([, t]) => !t.alone)
      .sort((a, b) => b[1].seats.size - a[1].seats.size)
      .map(([w]) => w);
  }
}
