/**
 * `--items-per-worker` on the real CLI (config/items-per-worker.ts), with the `seat-crosser`
 * fixture: honest while a worker carries one item, it sends later items' requests through the
 * first seat's client when it carries several. At 4 items a worker the run records the violations
 * and exits 1; the same fixture at 1 item a worker passes clean, so the catch is the rule's, not
 * noise. The flag is recorded in the manifest and every record, and checked like every count.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { arenaCli, outputRoot } from "../support/cli.ts";

const CROSSER = FIXTURES["seat-crosser"].module;

function latestRun(root: string) {
  const run = path.join(root, "runs", "latest");
  const manifest = JSON.parse(readFileSync(path.join(run, "run.json"), "utf8"));
  const record = JSON.parse(readFileSync(path.join(run, "records", readdirSync(path.join(run, "records"))[0]!), "utf8"));
  return { manifest, record, items: record.frameworks[0].items as { item_id: string; violations?: { rule: string }[] }[], lane: record.frameworks[0] };
}

const bench = (k: string, env: Record<string, string>) =>
  arenaCli(["bench", "--adapter", CROSSER, "--arena", "tool_use", "--concurrency", "8", "--items-per-worker", k, "--quiet"], env);

describe("--items-per-worker and the seat-crosser fixture", () => {
  it("at 4 items a worker: requests under another seat's identity are caught on the items and the run exits 1", async () => {
    const { root, env } = outputRoot();
    const r = await bench("4", env);
    expect(r.exitCode, r.stderr).toBe(1);
    const { manifest, record, items, lane } = latestRun(root);
    expect(manifest.items_per_worker).toBe(4);
    expect(record.provenance.items_per_worker).toBe(4);
    const rules = new Set(items.flatMap((i) => (i.violations ?? []).map((v) => v.rule)));
    // An item whose requests went out as another seat's: the gateway served it nothing it answered with.
    expect(rules.has("usage-reported")).toBe(true);
    // ... and whichever item held that seat, or no leg at all, carried them: either way it is on the record.
    const elsewhere = rules.has("cross-item") || rules.has("replay") || (lane.isolation?.violations ?? []).some((v: string) => v.includes("outside every leg"));
    expect(elsewhere).toBe(true);
    expect(`${r.stdout}${r.stderr}`).toMatch(/breaks rule (usage-reported|no-llm-call|served-result), not expected to/);
  }, 180_000);

  it("at 1 item a worker the same fixture passes clean, and nothing is recorded about seats", async () => {
    const { root, env } = outputRoot();
    const r = await bench("1", env);
    expect(r.exitCode, r.stderr).toBe(0);
    const { manifest, record, items, lane } = latestRun(root);
    expect(manifest.items_per_worker).toBeUndefined();
    expect(record.provenance.items_per_worker).toBeUndefined();
    expect(items.flatMap((i) => i.violations ?? [])).toEqual([]);
    expect(lane.isolation?.violations).toBeUndefined();
  }, 180_000);

  it("refuses a count out of range, and a resume that asks for another value than it recorded", async () => {
    const { env } = outputRoot();
    const zero = await arenaCli(["bench", "--framework", "vanilla", "--arena", "tool_use", "--items-per-worker", "0"], env);
    expect(zero.exitCode).toBe(2);
    expect(zero.stderr).toContain("--items-per-worker");
    const ran = await arenaCli(["bench", "--framework", "vanilla", "--arena", "tool_use", "--item", "tu-01", "--items-per-worker", "2", "--quiet"], env);
    expect(ran.exitCode, ran.stderr).toBe(0);
    const resume = await arenaCli(["bench", "--resume", "--items-per-worker", "3"], env);
    expect(resume.exitCode).toBe(2);
    expect(resume.stderr).toContain("a resume runs as the run was recorded (2 items per worker)");
  }, 120_000);
});
