/**
 * Runs that lose nothing, on the real CLI: a run folder per run, a journal, interrupt and resume
 * (at seeded random points, compared with an uninterrupted run), kill -9, drift refusal, atomic
 * outputs with readers that skip a broken record, checkpoints cleaned up, `arena clean`.
 */
import os from "node:os";
import { appendFileSync, existsSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { arenaCli, arenasCopy, comparableScorecard, filesUnder, outputRoot, runIdsIn } from "../support/cli.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { mulberry32 } from "../../orchestrator/stats/prng.ts";

const ARENAS = ["tool_use", "durable_state", "human_in_the_loop"];
const arenaFlags = (dir?: string) => [...(dir ? ["--arenas-dir", dir] : []), ...ARENAS.flatMap((a) => ["--arena", a])];
const vanillaRun = (dir?: string) => ["run", ...arenaFlags(dir), "--framework", "vanilla", "--concurrency", "1"];


const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";

/** Resolves once a run under `root` has its journal: its first cell has finished. */
async function startedRun(root: string): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 25) {
    const latest = path.join(root, "runs", "latest");
    if (existsSync(path.join(latest, "journal.jsonl"))) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no run started under ${root} within 60 s`);
}

describe("run folders, journal, interrupt and resume (real CLI)", () => {
  let reference: { runDir: string; seconds: number } | undefined;

  it("a run writes one folder: manifest, journal, records, scorecards, summary, logs; latest points at it; checkpoints go", async () => {
    const { root, env } = outputRoot();
    const t0 = performance.now();
    const r = await arenaCli(vanillaRun(), env);
    const seconds = (performance.now() - t0) / 1000;
    expect(r.exitCode, r.stderr).toBe(0);
    const [id] = runIdsIn(root);
    const runDir = path.join(root, "runs", id!);
    const files = filesUnder(runDir);
    expect(files).toEqual(expect.arrayContaining(["run.json", "journal.jsonl", "summary.md", ...ARENAS.flatMap((a) => [`records/${a}.json`, `scorecards/${a}/scorecard.md`, `scorecards/${a}/scorecard.csv`, `scorecards/${a}/scorecard.json`])]));
    expect(files.some((f) => f.startsWith("logs/s0/vanilla__w"))).toBe(true);
    expect(readlinkSync(path.join(root, "runs", "latest"))).toBe(id);
    expect(readFileSync(path.join(runDir, "journal.jsonl"), "utf8").trim().split("\n").filter((l) => l.includes('"type":"item"'))).toHaveLength(18 + 10 + 14);
    expect(existsSync(path.join(root, "checkpoints", id!))).toBe(false);
    expect(existsSync(path.join(root, "results"))).toBe(false);
    expect(lastLine(r.stdout)).toBe(
      `results match the expectations; summary: ${path.relative(REPO_ROOT, path.join(runDir, "summary.md"))}; report: ${path.relative(REPO_ROOT, path.join(runDir, "report.html"))}`,
    );
    expect(r.stdout).toContain(`scorecards: ${path.relative(REPO_ROOT, path.join(runDir, "scorecards"))}/\n`);
    expect(files).toEqual(expect.arrayContaining(["report.html", ...ARENAS.map((a) => `transcripts/${a}/vanilla.json`)]));
    const record = JSON.parse(readFileSync(path.join(runDir, "records", "tool_use.json"), "utf8"));
    expect(record).toMatchObject({ format_version: 2, run_id: id, status: "complete" });
    // The transcript holds every request the gateway served this lane, with its reply.
    const lane = JSON.parse(readFileSync(path.join(runDir, "transcripts", "tool_use", "vanilla.json"), "utf8"));
    const exchanges = Object.values(lane.items as Record<string, { legs: { exchanges: { reply: { json: { role: string } } }[] }[] }>).flatMap((t) => t.legs.flatMap((l) => l.exchanges));
    expect(exchanges.length).toBe(record.frameworks[0].items.reduce((a: number, i: { llm_calls: number }) => a + i.llm_calls, 0));
    expect(exchanges.every((x) => x.reply.json.role === "assistant")).toBe(true);
    // Provenance: the record names its command, code, configuration, data and machine on its own.
    const manifest = JSON.parse(readFileSync(path.join(runDir, "run.json"), "utf8"));
    expect(record.provenance).toMatchObject({
      command: vanillaRun(),
      provider_host: null,
      config: manifest.config,
      arena_sha256: manifest.arenas.find((a: { id: string }) => a.id === "tool_use").sha256,
      corpus_sha256: manifest.corpus.sha256,
      machine: { cores: os.availableParallelism(), node: process.versions.node },
    });
    expect(record.provenance.git_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(record.provenance.concurrency).toBeGreaterThan(0);
    reference = { runDir, seconds };
  }, 120_000);

  it("SIGINT and SIGTERM at random points keep what finished; --resume finishes the run and its scorecards equal the uninterrupted run's", async () => {
    expect(reference).toBeDefined();
    // Seeded: the interrupt points are random but the same on every run of the suite.
    const random = mulberry32(20261201);
    const signals = ["SIGINT", "SIGTERM", "SIGINT"] as const;
    let interrupted = 0;
    for (const signal of signals) {
      const { root, env } = outputRoot();
      // The random point is measured from the moment the run has started (its journal exists), so a
      // slow start on a loaded machine cannot turn the interrupt into one before anything ran.
      const delayMs = random() * Math.max(200, reference!.seconds * 1000 * 0.7);
      const child = arenaCli(vanillaRun(), env);
      await startedRun(root);
      await new Promise((r) => setTimeout(r, delayMs));
      child.kill(signal);
      const stopped = await child;
      const [id] = runIdsIn(root);
      const runDir = path.join(root, "runs", id!);
      if (stopped.exitCode === 0) continue; // finished before the signal landed: nothing to resume
      interrupted += 1;
      expect(stopped.exitCode, `${signal} after ${delayMs.toFixed(0)} ms: ${stopped.stderr}`).toBe(signal === "SIGINT" ? 130 : 143);
      expect(lastLine(stopped.stdout)).toBe(`resume with: pnpm arena run --resume ${id}`);
      expect(stopped.stderr).not.toMatch(/\n\s+at /);
      // What finished is in the journal and in records marked interrupted; no scorecard was written.
      const finished = readFileSync(path.join(runDir, "journal.jsonl"), "utf8").split("\n").filter((l) => l.includes('"type":"item"')).length;
      expect(finished).toBeLessThan(42);
      expect(existsSync(path.join(runDir, "scorecards"))).toBe(false);
      // An interrupted run still gets its report (its banner says the run is partial).
      expect(existsSync(path.join(runDir, "report.html"))).toBe(true);
      expect(stopped.stdout).toContain(`report: `);

      const resumed = await arenaCli(["run", "--resume", id!, "--concurrency", "1"], env);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      const items = readFileSync(path.join(runDir, "journal.jsonl"), "utf8").split("\n").filter((l) => l.includes('"type":"item"'));
      // Only the missing cells ran: each cell is in the journal exactly once.
      expect(items).toHaveLength(42);
      for (const arena of ARENAS) expect(comparableScorecard(runDir, arena)).toEqual(comparableScorecard(reference!.runDir, arena));
      const manifest = JSON.parse(readFileSync(path.join(runDir, "run.json"), "utf8"));
      expect(manifest.sessions.map((s: { status: string }) => s.status)).toEqual(["interrupted", "complete"]);
    }
    // The points are drawn within the run's measured length: most must land inside it.
    expect(interrupted).toBeGreaterThanOrEqual(2);
  }, 300_000);

  it("kill -9 of the orchestrator loses only the cells in flight; the resume runs the rest", async () => {
    const { root, env } = outputRoot();
    const child = arenaCli(vanillaRun(), env);
    await startedRun(root);
    await new Promise((r) => setTimeout(r, reference!.seconds * 300));
    child.kill("SIGKILL");
    await child;
    const [id] = runIdsIn(root);
    const runDir = path.join(root, "runs", id!);
    const resumed = await arenaCli(["run", "--resume", "--concurrency", "1"], env);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    for (const arena of ARENAS) expect(comparableScorecard(runDir, arena)).toEqual(comparableScorecard(reference!.runDir, arena));
  }, 120_000);

  it("a resume refuses, naming it, when the arena data changed; --force resumes anyway", async () => {
    const { root, env } = outputRoot();
    const arenas = arenasCopy();
    // The drift check does not depend on how far the run got: a finished run shows it as well.
    const first = await arenaCli(vanillaRun(arenas), env);
    expect(first.exitCode, first.stderr).toBe(0);
    const [id] = runIdsIn(root);
    appendFileSync(path.join(arenas, "tool_use", "arena.toml"), "\n# edited after the run\n");
    const refused = await arenaCli(["run", "--resume", id!], env);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`refusing to resume ${id}: arena tool_use: its files changed (${path.join(arenas, "tool_use")}) (--force resumes anyway)`);
    const forced = await arenaCli(["run", "--resume", id!, "--force"], env);
    expect(forced.exitCode, forced.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(root, "runs", id!, "run.json"), "utf8"));
    expect(manifest.sessions.at(-1)).toMatchObject({ kind: "resume", forced: true, status: "complete" });
  }, 120_000);

  it("two runs started together get two folders; a broken record from an earlier run is skipped with one warning", async () => {
    const { root, env } = outputRoot();
    const args = ["run", "--arena", "resilience", "--framework", "vanilla"];
    const [a, b] = await Promise.all([arenaCli(args, env), arenaCli(args, env)]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    const ids = runIdsIn(root);
    expect(ids).toHaveLength(2);
    writeFileSync(path.join(root, "runs", ids[0]!, "records", "resilience.json"), '{"schema": 1, "arena": "resil');
    writeFileSync(path.join(root, "runs", "20250101T000000__tool_use__mock.json"), "{}");
    const c = await arenaCli(args, env);
    expect(c.exitCode, c.stderr).toBe(0);
    const warnings = c.stderr.split("\n").filter((l) => l.startsWith("warning: skipped"));
    expect(warnings).toHaveLength(2);
    expect(warnings.some((w) => w.includes(path.join(ids[0]!, "records", "resilience.json")))).toBe(true);
    expect(warnings.some((w) => w.includes("20250101T000000__tool_use__mock.json"))).toBe(true);
    const summary = readFileSync(path.join(root, "runs", "summary.md"), "utf8");
    // The summary draws on the newest complete record, the third run's, and names that run once.
    const third = runIdsIn(root).filter((id) => !ids.includes(id));
    expect(third).toHaveLength(1);
    expect(summary).toMatch(new RegExp(`Every cell comes from run \`${third[0]}\`, started \\d{4}-\\d\\d-\\d\\dT`));
  }, 120_000);

  it("--keep-checkpoints keeps checkpoints/<run>/; arena clean --keep 1 prunes the rest", async () => {
    const { root, env } = outputRoot();
    const first = await arenaCli(["run", "--arena", "durable_state", "--framework", "vanilla", "--keep-checkpoints"], env);
    expect(first.exitCode, first.stderr).toBe(0);
    const [id] = runIdsIn(root);
    expect(existsSync(path.join(root, "checkpoints", id!, "s0", "vanilla", "durable_state"))).toBe(true);
    const second = await arenaCli(["run", "--arena", "durable_state", "--framework", "vanilla"], env);
    expect(second.exitCode).toBe(0);
    const clean = await arenaCli(["clean", "--keep", "1"], env);
    expect(clean.exitCode).toBe(0);
    expect(clean.stdout).toContain(`removed ${id}`);
    expect(runIdsIn(root)).toHaveLength(1);
    expect(existsSync(path.join(root, "checkpoints", id!))).toBe(false);
  }, 120_000);

  it("an output root that cannot be written is one line and exit 3, before anything runs", async () => {
    const { root } = outputRoot();
    const file = path.join(root, "a-file");
    writeFileSync(file, "");
    const r = await arenaCli(["run", "--arena", "resilience", "--framework", "vanilla"], { ARENA_OUTPUT_ROOT: file });
    expect(r.exitCode).toBe(3);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot write .*a-file.*: (ENOTDIR|EEXIST) \(.*\) — nothing ran \(exit 3\)/);
  }, 60_000);
});
