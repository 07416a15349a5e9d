/**
 * The reported bugs of watched mode, end to end through the real `arena` executable with
 * `ARENA_SANDBOX=off`: an honest bench must exit 0 with no isolation violation
 *
 * (a) while its own stderr goes to a file in the temp dir (`2>/tmp/err.txt`: the orchestrator
 *     writes its progress there while workers live) and another process keeps writing in the
 *     temp dir, and
 * (b) while folders like another run's `arena-bridge-XXXXXX` keep appearing in the temp dir.
 *
 * The lane is openai_agents on resilience: its expected failure (res-02, arenas/expectations.toml)
 * makes the orchestrator write a line to stderr in the middle of the lane, and the run still
 * exits 0. The temp dir is the test's own folder (TMPDIR), so only the test writes in it.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { BIN } from "../support/cli.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { foreignWriter, type Foreign } from "./watched-support.ts";

/** The compile cache a bench on this machine uses (spawnHost's), outside the test's temp dir: warm, so the run is quick. */
const WARM_CACHE = path.join(os.tmpdir(), "agentic-arena-compile-cache");

interface Bench {
  readonly exitCode: number | undefined;
  readonly stderr: string;
  readonly violations: string[];
  readonly isolation: unknown;
}

/** One honest lane, watched, its stderr into `<tmp>/stderr.txt`; the lane's isolation from the run record. */
async function bench(tmp: string): Promise<Bench> {
  const out = path.join(tmp, "out");
  const stderrFile = path.join(tmp, "stderr.txt");
  const r = await execa(process.execPath, [BIN, "bench", "--arena", "resilience", "--framework", "openai_agents"], {
    cwd: REPO_ROOT,
    reject: false,
    // As tests/support/cli.ts's arenaCli: a fresh machine's environment, plus watched mode and our temp dir.
    env: { ARENA_LLM_MODE: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ARENA_SANDBOX: "off", ARENA_OUTPUT_ROOT: out, TMPDIR: tmp, NODE_COMPILE_CACHE: WARM_CACHE },
    stderr: { file: stderrFile },
  });
  const record = JSON.parse(readFileSync(path.join(out, "runs", "latest", "records", "resilience.json"), "utf8"));
  const isolation = record.frameworks[0].isolation;
  return { exitCode: r.exitCode, stderr: readFileSync(stderrFile, "utf8"), violations: isolation?.violations ?? [], isolation };
}

describe.runIf(process.platform === "linux")("watched bench through the CLI: others' files are not the workers'", () => {
  let tmp: string | undefined;
  let foreign: Foreign | undefined;

  afterEach(async () => {
    await foreign?.stop();
    foreign = undefined;
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    tmp = undefined;
  });

  it("(a) stderr redirected to a temp-dir file, another process writing there: exit 0, no violation", async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "arena-watched-cli-"));
    foreign = await foreignWriter(tmp, { closed: true, held: true });
    const r = await bench(tmp);
    // The premise: the orchestrator wrote to its stderr file while the lane's worker lived.
    expect(r.stderr).toContain("openai_agents/resilience/res-02: errored");
    expect(r.isolation).toMatchObject({ level: "watched", tool: "watcher (/proc)" });
    expect(r.violations).toEqual([]);
    expect(r.exitCode, r.stderr).toBe(0);
  }, 120_000);

  it("(b) another run's arena-bridge-* folders appearing in the temp dir: exit 0, no violation", async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "arena-watched-cli-"));
    foreign = await foreignWriter(tmp, { folders: true });
    const r = await bench(tmp);
    await foreign.stop();
    // The premise: folders appeared during the run (one every 20 ms).
    expect(readdirSync(tmp).filter((n) => n.startsWith("arena-bridge-")).length).toBeGreaterThan(10);
    expect(r.violations).toEqual([]);
    expect(r.exitCode, r.stderr).toBe(0);
  }, 120_000);
});
