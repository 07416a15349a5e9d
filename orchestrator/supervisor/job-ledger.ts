/**
 * The strict half of the protocol: which answers a worker may send, and when. A result for a job
 * that is not in flight, a second result for a job, a result after the job's deadline, a build
 * answer for an arena not being built, a second `ready` — each is a protocol violation that names
 * the job and the item it belonged to, never a message dropped on the floor.
 */
import type { FromWorker } from "../../contract/protocol-replies.ts";

/** What a job was for: the item cell it ran, so a late violation can still be pinned on it. */
export interface JobOwner {
  readonly arena: string;
  readonly itemId: string;
  /** The caller's name for the cell (repeat × item), passed through untouched. */
  readonly cell?: string;
}

export interface Violation {
  readonly reason: string;
  /** The item whose job the message claimed to answer, when the job is known. */
  readonly owner?: JobOwner;
}

/** Remembered answered and expired jobs, for naming a late duplicate precisely. */
const MEMORY = 256;

export class JobLedger {
  private readonly inFlight = new Map<string, JobOwner>();
  private readonly answered = new Map<string, JobOwner>();
  private readonly expired = new Map<string, JobOwner>();
  private readonly building = new Set<string>();
  private ready = false;

  start(job: string, owner: JobOwner): void {
    this.inFlight.set(job, owner);
  }

  /** The leg's deadline passed: anything that still answers it is late. */
  expire(job: string): void {
    const owner = this.inFlight.get(job);
    this.inFlight.delete(job);
    if (owner) remember(this.expired, job, owner);
  }

  /** A build of `arena` on `seat` was sent: one answer for that arena on that seat is due. */
  startBuild(arena: string, seat = 0): void {
    this.building.add(buildKey(arena, seat));
  }

  /** Accept `message` and update the ledger, or say what rule it broke. */
  judge(message: Exclude<FromWorker, { type: "log" }>): Violation | undefined {
    switch (message.type) {
      case "ready":
        if (this.ready) return { reason: "a second ready message" };
        this.ready = true;
        return undefined;
      case "built":
      case "build_failed":
        if (!this.building.delete(buildKey(message.arena, message.seat))) {
          const where = message.seat === 0 ? "" : ` on seat ${message.seat}`;
          return { reason: `a build answer for arena ${message.arena}${where}, which was not being built` };
        }
        return undefined;
      case "result":
      case "suspended":
      case "error": {
        const job = message.job;
        const owner = this.inFlight.get(job);
        if (owner) {
          this.inFlight.delete(job);
          remember(this.answered, job, owner);
          return undefined;
        }
        const answered = this.answered.get(job);
        if (answered) return { reason: `a second ${message.type} for job ${job} (${describe(answered)}), after it was answered`, owner: answered };
        const late = this.expired.get(job);
        if (late) return { reason: `${article(message.type)} for job ${job} (${describe(late)}) after its deadline`, owner: late };
        return { reason: `${article(message.type)} for job ${job}, which is not in flight` };
      }
    }
  }
}

function buildKey(arena: string, seat: number): string {
  return `${seat}\u0000${arena}`;
}

function remember(map: Map<string, JobOwner>, job: string, owner: JobOwner): void {
  map.set(job, owner);
  if (map.size > MEMORY) map.delete(map.keys().next().value!);
}

function describe(owner: JobOwner): string {
  return `item ${owner.itemId} of ${owner.arena}`;
}

function article(type: string): string {
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}
