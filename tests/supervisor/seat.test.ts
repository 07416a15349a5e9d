/**
 * Seat accounting (orchestrator/supervisor/seat.ts): a worker's free seats for a lane, a worker
 * held alone by a durable item, and which workers an item may sit beside.
 */
import { describe, expect, it } from "vitest";
import { Seating, seatName } from "../../orchestrator/supervisor/seat.ts";
import type { WorkerProcess } from "../../orchestrator/supervisor/worker-process.ts";

/** A stand-in worker: Seating reads only its id and which seats have a runner for an arena. */
function worker(id: string, built: readonly number[] = []): WorkerProcess {
  return { id, isBuiltFor: (_arena: string, seat = 0) => built.includes(seat) } as unknown as WorkerProcess;
}

describe("Seating", () => {
  it("hands out each seat once, up to the lane's seats, preferring one already built for the arena", () => {
    const seating = new Seating();
    const w = worker("w0", [2]);
    expect(seating.freeSeat(w, 4, "tool_use")).toBe(2);
    const seats = [2, 0, 1, 3].map((i) => seating.take(w, i, false));
    expect(seats.map((s) => s.id)).toEqual(["w0.s2", "w0", "w0.s1", "w0.s3"]);
    expect(seating.freeSeat(w, 4, "tool_use")).toBeUndefined();
    expect(() => seating.take(w, 1, false)).toThrow(/w0\.s1 is taken/);
    expect(seating.free(seats[0]!)).toBe(false);
    expect(seating.freeSeat(w, 4, "tool_use")).toBe(2);
    for (const s of seats.slice(1)) seating.free(s);
    expect(seating.busy(w)).toBe(0);
  });

  it("a durable item takes a worker alone: nothing sits beside it, and it takes no worker someone is on", () => {
    const seating = new Seating();
    const [alone, shared] = [worker("w0"), worker("w1")];
    seating.take(alone, 0, true);
    expect(seating.freeSeat(alone, 4, "tool_use")).toBeUndefined();
    seating.take(shared, 0, false);
    expect(seating.freeSeat(shared, 1, "durable_state")).toBeUndefined();
    expect(seating.shared()).toEqual([shared]);
  });

  it("offers the busiest shared worker first, so workers fill before the next is used", () => {
    const seating = new Seating();
    const [a, b] = [worker("w0"), worker("w1")];
    seating.take(a, 0, false);
    seating.take(b, 0, false);
    seating.take(b, 1, false);
    expect(seating.shared().map((w) => w.id)).toEqual(["w1", "w0"]);
    expect([seatName("w3", 0), seatName("w3", 2)]).toEqual(["w3", "w3.s2"]);
  });
});
