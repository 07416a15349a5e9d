/**
 * Watched mode charges a worker only with what its own process tree wrote
 * (orchestrator/supervisor/sandbox/attribution.ts), through the real Isolation and real
 * processes: a small script is the worker, the test process is the orchestrator, and a process
 * the test spawns writes beside them the way other runs and tools do on a shared machine. The
 * temp root is a folder of the test's own (TMPDIR), so nothing else on the machine is in it.
 *
 * Linux only: the evidence comes from /proc.
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { alive, tagged } from "./support.ts";
import { foreignWriter, runWatchedScript, watchedIsolation } from "./watched-support.ts";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * An honest worker that lives until every file in `grows` has grown and `dir` (if given) has more
 * entries than at its start: the writes beside it certainly happened while it lived.
 */
function waitsForOthers(grows: readonly string[], dir?: string): string {
  return `
    const fs = require("node:fs");
    const size = (f) => fs.statSync(f).size;
    const first = ${JSON.stringify(grows)}.map(size), dir = ${JSON.stringify(dir ?? null)};
    const entries = () => (dir === null ? 0 : fs.readdirSync(dir).length), before = entries();
    const done = () => ${JSON.stringify(grows)}.every((f, i) => size(f) > first[i]) && (dir === null || entries() > before);
    const until = Date.now() + 10000;
    const wait = () => (done() || Date.now() > until ? process.exit(0) : setTimeout(wait, 20));
    setTimeout(wait, 300);
  `;
}

describe.runIf(process.platform === "linux")("watched: attribution to the worker's tree", () => {
  let tmp: string;
  let ckRoot: string;

  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "arena-watched-"));
    // The orchestrator's temp root for this file: os.tmpdir() reads TMPDIR at each call.
    vi.stubEnv("TMPDIR", tmp);
    ckRoot = path.join(tmp, "out", "checkpoints", "run", "s1");
    mkdirSync(path.join(ckRoot, "vanilla"), { recursive: true });
  });

  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("an honest worker: nothing others write beside it while it lives is charged to it", async () => {
    const iso = watchedIsolation(path.join(ckRoot, "honest"));
    // Another process keeps writing in the temp root (a closed file, a held file, arena-bridge-* folders) ...
    const foreign = await foreignWriter(tmp, { closed: true, held: true, folders: true });
    // ... and another in the run's checkpoint root, through a file it holds open.
    const foreignOwned = await foreignWriter(ckRoot, { held: true });
    // The orchestrator's own output: a file it holds open and writes while the worker lives, as its stderr would be.
    const ours = openSync(path.join(tmp, "stderr.txt"), "a");
    const oursOwned = openSync(path.join(ckRoot, "orchestrator.log"), "a");
    const ticker = setInterval(() => {
      writeSync(ours, "progress\n");
      writeSync(oursOwned, "progress\n");
    }, 20);
    try {
      const grows = [path.join(tmp, "busy.log"), path.join(tmp, "held.log"), path.join(tmp, "stderr.txt"), path.join(ckRoot, "held.log"), path.join(ckRoot, "orchestrator.log")];
      const violations = await runWatchedScript(iso, "w0", waitsForOthers(grows, tmp));
      expect(violations).toEqual([]);
    } finally {
      clearInterval(ticker);
      closeSync(ours);
      closeSync(oursOwned);
      await foreign.stop();
      await foreignOwned.stop();
    }
  }, 30_000);

  it("the limit in owned areas: a foreign write-and-close there is charged, since only the harness writes there", async () => {
    const iso = watchedIsolation(path.join(ckRoot, "limit"));
    const foreign = await foreignWriter(ckRoot, { closed: true });
    try {
      const violations = await runWatchedScript(iso, "w0", waitsForOthers([path.join(ckRoot, "busy.log")]));
      expect(violations).toEqual([`w0: modified busy.log in the checkpoint root (${path.join(ckRoot, "busy.log")})`]);
    } finally {
      await foreign.stop();
    }
  }, 30_000);

  it("a hostile worker: what its tree held open in the temp root, its survivor, and its write in another adapter's folder are caught", async () => {
    const iso = watchedIsolation(path.join(ckRoot, "hostile"));
    const tag = `watched-${process.pid}-${Date.now()}`;
    const stash = path.join(tmp, "stash.db");
    const left = path.join(tmp, "survivor.log");
    const quick = path.join(tmp, "quick.json");
    const foreignFile = path.join(ckRoot, "vanilla", "planted.json");
    const script = `
      const fs = require("node:fs"), { spawn } = require("node:child_process");
      // Written and closed in an instant: no process holds it when anyone looks.
      fs.writeFileSync(${JSON.stringify(quick)}, "{}");
      fs.writeFileSync(${JSON.stringify(foreignFile)}, "{}");
      // A store kept open where every worker could find it.
      const fd = fs.openSync(${JSON.stringify(stash)}, "w");
      fs.writeSync(fd, "state");
      // A detached grandchild that keeps a file open after the worker is gone.
      const hold = "const fs = require('node:fs'); const fd = fs.openSync(process.argv[1], 'w'); fs.writeSync(fd, 'x'); setInterval(() => {}, 1000)";
      spawn(process.execPath, ["-e", hold, ${JSON.stringify(left)}], { detached: true, stdio: "ignore", env: { ...process.env, ARENA_HOLD_TAG: ${JSON.stringify(tag)} } }).unref();
      // Long enough for a few of the watcher's looks (tree.ts SAMPLE_MS).
      const until = Date.now() + 2000;
      const wait = () => (Date.now() > until && fs.existsSync(${JSON.stringify(left)}) ? process.exit(0) : setTimeout(wait, 50));
      wait();
    `;
    const violations = await runWatchedScript(iso, "w0", script);
    expect(await alive(() => tagged("ARENA_HOLD_TAG", tag))).toEqual([]);
    expect(existsSync(stash) && existsSync(left) && existsSync(quick)).toBe(true);
    expect(violations).toHaveLength(4);
    expect(violations).toContainEqual(expect.stringMatching(/^w0: a process outlived the worker outside its process group \(pid \d+: .*node -e .*\); killed$/));
    expect(violations).toContainEqual(`w0: created vanilla/planted.json in the checkpoint root (${foreignFile})`);
    expect(violations).toContainEqual(expect.stringMatching(new RegExp(`^w0: created stash\\.db in the temp dir, open for writing by pid \\d+ of the worker's tree \\(${escape(stash)}\\)$`)));
    expect(violations).toContainEqual(expect.stringMatching(new RegExp(`^w0: created survivor\\.log in the temp dir, open for writing by pid \\d+ of the worker's tree \\(${escape(left)}\\)$`)));
    // The documented limit: a write-and-close in a shared area leaves no evidence of who made it.
    expect(violations.some((v) => v.includes("quick.json"))).toBe(false);
  }, 30_000);
});
