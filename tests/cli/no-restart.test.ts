/**
 * `--no-restart` on the real CLI (orchestrator/cli/no-restart.ts): durable pauses resume on the
 * process that paused, the manifest and every record say so, and it is refused where a run must
 * prove its restarts (live, --update-expected) or runs as recorded (a resume).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { arenaCli, outputRoot } from "../support/cli.ts";

function latest(root: string): string {
  return path.join(root, "runs", "latest");
}

describe("--no-restart", () => {
  it("resumes every durable pause on the same process, and records it in the manifest and the records", async () => {
    const { root, env } = outputRoot();
    const r = await arenaCli(["run", "--arena", "durable_state", "--framework", "vanilla", "--concurrency", "1", "--no-restart", "--quiet"], env);
    expect(r.exitCode).toBe(0);
    const run = latest(root);
    expect(JSON.parse(readFileSync(path.join(run, "run.json"), "utf8")).no_restart).toBe(true);
    const record = JSON.parse(readFileSync(path.join(run, "records", readdirSync(path.join(run, "records"))[0]!), "utf8"));
    expect(record.provenance.no_restart).toBe(true);
    const items = record.frameworks[0].items as { legs?: unknown[] }[];
    expect(items.every((i) => (i.legs?.length ?? 0) > 1)).toBe(true); // every item still paused and resumed
    // One item in flight and no restart: one process served the whole lane.
    expect(readdirSync(path.join(run, "logs", "s0"))).toEqual(["vanilla__w0.log"]);
  }, 120_000);

  it("without it, the same run restarts at every pause and records nothing of the kind", async () => {
    const { root, env } = outputRoot();
    const r = await arenaCli(["run", "--arena", "durable_state", "--framework", "vanilla", "--concurrency", "1", "--quiet"], env);
    expect(r.exitCode).toBe(0);
    const run = latest(root);
    expect(JSON.parse(readFileSync(path.join(run, "run.json"), "utf8")).no_restart).toBeUndefined();
    expect(readdirSync(path.join(run, "logs", "s0")).length).toBeGreaterThan(10); // a fresh process per resume
  }, 120_000);

  it("is refused on a live run, with --update-expected, and on a resume, before anything runs", async () => {
    const { root, env } = outputRoot();
    const live = await arenaCli(["run", "--arena", "durable_state", "--framework", "vanilla", "--mode", "live", "--no-restart"], {
      ...env,
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      ARENA_MODEL: "m",
    });
    expect(live.exitCode).toBe(2);
    expect(live.stderr).toContain("--no-restart is for measuring mock runs");
    const update = await arenaCli(["run", "--arena", "durable_state", "--framework", "vanilla", "--no-restart", "--update-expected"], env);
    expect(update.exitCode).toBe(2);
    expect(update.stderr).toContain("--no-restart cannot be combined with --update-expected");
    const resume = await arenaCli(["run", "--resume", "--no-restart"], env);
    expect(resume.exitCode).toBe(2);
    expect(resume.stderr).toContain("--no-restart cannot be combined with a resume");
    expect(readdirSync(root).filter((d) => d === "runs")).toEqual([]); // no run folder was made
  }, 60_000);
});
