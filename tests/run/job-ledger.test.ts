/** The strict protocol's rules, one by one: every answer must be for a job in flight, once, in time. */
import { describe, expect, it } from "vitest";
import { JobLedger } from "../../orchestrator/supervisor/job-ledger.ts";

const result = (job: string) => ({ type: "result", job, result: {} as never, adapterSeconds: 0 }) as const;
const owner = { arena: "a", itemId: "x-01", cell: "0\u0000x-01" };

describe("JobLedger", () => {
  it("accepts one answer per job in flight, and one ready", () => {
    const l = new JobLedger();
    expect(l.judge({ type: "ready", pid: 1 })).toBeUndefined();
    l.start("j1", owner);
    expect(l.judge(result("j1"))).toBeUndefined();
  });
  it("names each violation and, where it knows it, the item", () => {
    const l = new JobLedger();
    l.judge({ type: "ready", pid: 1 });
    expect(l.judge({ type: "ready", pid: 1 })?.reason).toBe("a second ready message");
    l.start("j1", owner);
    l.judge(result("j1"));
    expect(l.judge(result("j1"))).toEqual({ reason: "a second result for job j1 (item x-01 of a), after it was answered", owner });
    l.start("j2", owner);
    l.expire("j2");
    expect(l.judge({ type: "error", job: "j2", error: "e", traceback: "", causes: [], adapterSeconds: 0 })).toEqual({
      reason: "an error for job j2 (item x-01 of a) after its deadline",
      owner,
    });
    expect(l.judge(result("j9"))).toEqual({ reason: "a result for job j9, which is not in flight" });
    expect(l.judge({ type: "built", arena: "b", seat: 0, libVersion: "v", resumable: false, delegates: [], wireExceptions: [] })?.reason).toBe(
      "a build answer for arena b, which was not being built",
    );
    l.startBuild("b");
    expect(l.judge({ type: "built", arena: "b", seat: 0, libVersion: "v", resumable: false, delegates: [], wireExceptions: [] })).toBeUndefined();
  });
});
