/**
 * A run survives its terminal, on the real CLI: SIGHUP (the terminal closing) is an interrupt
 * with a record and the resume hint; a reader that goes away (`| head`) stops the output, not the
 * run, and the exit code is the run's own; a run killed with SIGKILL is listed as interrupted once
 * its process is gone. Each run is held at an observable point (a request the fake provider has
 * not answered yet, a journal line) before the test acts, so nothing depends on the machine's speed.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { arenaCli, BIN, outputRoot, runIdsIn } from "../support/cli.ts";
import { answer, fakeProvider, type ProviderReply } from "../support/fake-provider.ts";
import { liveEnv, liveRunArgs, sumOf, sumsArenas } from "../support/live-run.ts";
import { REPO_ROOT } from "../support/reference.ts";

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";

/**
 * A provider that answers `s-1` and holds `s-2` until released; `held` resolves when the held
 * request has arrived, i.e. the run is under way with a cell in flight.
 */
async function holdingProvider() {
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  let release!: (r: ProviderReply) => void;
  const released = new Promise<ProviderReply>((resolve) => (release = resolve));
  const provider = await fakeProvider((_n, body) => {
    const k = sumOf(body);
    if (k !== 2) return answer(`The answer is ${k + 2}.`);
    arrived();
    return released;
  });
  return { provider, held, release: () => release(answer("The answer is 4.")) };
}

function statusOf(runsTable: string, id: string): string {
  const row = runsTable.split("\n").find((l) => l.startsWith(id));
  expect(row, runsTable).toBeDefined();
  return row!.split(/\s{2,}/).at(-1)!;
}

describe("a run survives its terminal (real CLI)", () => {
  it("SIGHUP mid-run is an interrupt: exit 129, records marked interrupted, the resume hint; the resume finishes it", async () => {
    const { root, env } = outputRoot();
    const arenas = sumsArenas(3);
    const { provider, held, release } = await holdingProvider();
    try {
      const live = liveEnv(env, provider.baseUrl);
      const child = arenaCli([...liveRunArgs(arenas), "--concurrency", "1"], live);
      await held;
      child.kill("SIGHUP");
      const r = await child;
      const [id] = runIdsIn(root);
      expect(r.exitCode, r.stdout + r.stderr).toBe(129);
      expect(r.stderr).toContain("arena: SIGHUP: stopping");
      expect(r.stdout).toMatch(/^interrupted \(SIGHUP\): 1 cell\(s\) finished and are kept in /m);
      expect(lastLine(r.stdout)).toBe(`resume with: pnpm arena run --resume ${id}`);
      const runDir = path.join(root, "runs", id!);
      expect(JSON.parse(readFileSync(path.join(runDir, "records", "sums.json"), "utf8")).status).toBe("interrupted");
      expect(JSON.parse(readFileSync(path.join(runDir, "run.json"), "utf8")).sessions.map((s: { status: string }) => s.status)).toEqual(["interrupted"]);

      release();
      const resumed = await arenaCli(["run", "--resume", id!], live);
      expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain("sums vanilla: 3/3 passed");
    } finally {
      release();
      await provider.close();
    }
  }, 120_000);

  it("stdout or stderr closed by its reader: the run completes, writes its folder, and exits as it does unpiped", async () => {
    // A rule the adapter breaks makes the unpiped exit 1, so a kept exit code is told from a default 0.
    const module = path.join(REPO_ROOT, "fixtures", "adapters", "late-model-swap", "index.ts");
    const args = ["run", "--arena", "tool_use", "--adapter", module];
    const { env: plainEnv } = outputRoot();
    const unpiped = await arenaCli(args, plainEnv);
    expect(unpiped.exitCode, unpiped.stdout + unpiped.stderr).toBe(1);

    for (const stream of ["stdout", "stderr"] as const) {
      const { root, env } = outputRoot();
      const child = execa(process.execPath, [BIN, ...args], {
        cwd: REPO_ROOT,
        reject: false,
        env: { ARENA_LLM_MODE: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ...env },
      });
      // The reader goes away before the run has written a byte: every write to it fails (EPIPE).
      child[stream]!.destroy();
      const r = await child;
      expect(r.signal, `${stream}: ${r.signal}`).toBeUndefined();
      expect(r.exitCode, `${stream} closed: ${stream === "stdout" ? r.stderr : r.stdout}`).toBe(unpiped.exitCode);
      if (stream === "stdout") expect(r.stderr).not.toContain("EPIPE");
      const [id] = runIdsIn(root);
      const runDir = path.join(root, "runs", id!);
      for (const file of ["run.json", "journal.jsonl", "records/tool_use.json", "scorecards/tool_use/scorecard.md", "summary.md", "report.html"]) {
        expect(existsSync(path.join(runDir, file)), `${stream} closed: ${file}`).toBe(true);
      }
      expect(JSON.parse(readFileSync(path.join(runDir, "run.json"), "utf8")).sessions.at(-1).status).toBe("complete");
      expect(readFileSync(path.join(runDir, "journal.jsonl"), "utf8").split("\n").filter((l) => l.includes('"type":"item"'))).toHaveLength(18);
    }
  }, 180_000);

  it("a SIGKILLed run: `arena runs` lists it as running while its process lives (and refuses a second resume), interrupted once it is gone", async () => {
    const { root, env } = outputRoot();
    const arenas = sumsArenas(3);
    const { provider, held, release } = await holdingProvider();
    try {
      const live = liveEnv(env, provider.baseUrl);
      const child = arenaCli([...liveRunArgs(arenas), "--concurrency", "1"], live);
      await held;
      const [id] = runIdsIn(root);
      const during = await arenaCli(["runs"], env);
      // A live run carries 8 items a worker by default (--items-per-worker), and `arena runs` names it.
      const scope = " (8 items per worker)";
      expect(statusOf(during.stdout, id!)).toBe(`running${scope}`);
      // While its process lives, a second process may not resume it into the same journal.
      const twice = await arenaCli(["run", "--resume", id!], live);
      expect(twice.exitCode).toBe(2);
      expect(twice.stderr.trim()).toBe(`arena run: refusing to resume ${id}: process ${child.pid} is still running it`);

      child.kill("SIGKILL");
      const killed = await child;
      expect(killed.signal).toBe("SIGKILL");
      const after = await arenaCli(["runs"], env);
      expect(after.exitCode, after.stderr).toBe(0);
      expect(statusOf(after.stdout, id!)).toBe(`interrupted (process ${child.pid} is gone)${scope}`);
    } finally {
      release();
      await provider.close();
    }
  }, 120_000);
});
