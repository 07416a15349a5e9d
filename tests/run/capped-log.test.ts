/**
 * Worker logs are capped to their tail on disk at every moment, hold whole lines per stream, and
 * are redacted line by line: CappedLog on its own (the size checked after every write), and a real
 * worker (the `flooder` fixture) writing 10 MiB to each of stdout and stderr at once.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { CappedLog, LOG_CAP_BYTES } from "../../orchestrator/supervisor/capped-log.ts";
import { registerSecrets } from "../../orchestrator/files/redact.ts";
import { OUR_CORPUS, quickRun, tempDirs } from "../support/run.ts";

const scratch = () => path.join(mkdtempSync(path.join(os.tmpdir(), "arena-log-")), "w0.log");
const MARKER = /^\[log truncated: kept the last \d+ of \d+ bytes\]\n/;

describe("CappedLog", () => {
  it("is never over the cap on disk, after any write, and keeps the newest lines", () => {
    const file = scratch();
    const log = new CappedLog(file, 10_000);
    let largest = 0;
    // Every write ends mid-line and the other stream writes before the line is finished.
    log.write("out -1 ta", "stdout");
    log.write("err -1 ", "stderr");
    for (let i = 0; i < 5_000; i++) {
      log.write(`il\nout ${i} ${"x".repeat(40)}\nout ${i} ta`, "stdout");
      log.write(`${"y".repeat(30)}\nerr ${i} `, "stderr");
      // Now and then a line of the harness's own, between the streams' unfinished lines.
      if (i % 97 === 0) log.line(`[orchestrator] note ${i}`);
      largest = Math.max(largest, statSync(file).size);
    }
    log.write(`${"y".repeat(30)}\n`, "stderr");
    log.write("il\nout last line\n", "stdout");
    log.flush();
    expect(largest).toBeLessThanOrEqual(10_000);
    expect(statSync(file).size).toBeLessThanOrEqual(10_000);
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(MARKER);
    const lines = text.replace(MARKER, "").trimEnd().split("\n");
    expect(lines.at(-1)).toBe("out last line");
    expect(lines.slice(-3)).toEqual([`err 4999 ${"y".repeat(30)}`, "out 4999 tail", "out last line"]);
    // The two streams' unfinished lines were never glued together.
    for (const l of lines) expect(l).toMatch(/^(out \d+ x{40}|out \d+ tail|err \d+ y{30}|\[orchestrator\] note \d+|out last line)$/);
  });

  it("keeps only the tail of one write larger than the cap, and starts on a whole line", () => {
    const file = scratch();
    const log = new CappedLog(file, 4_096);
    log.write(Array.from({ length: 1_000 }, (_, i) => `line ${i}\n`).join(""));
    expect(statSync(file).size).toBeLessThanOrEqual(4_096);
    const kept = readFileSync(file, "utf8").replace(MARKER, "");
    expect(kept.endsWith("line 999\n")).toBe(true);
    expect(kept).toMatch(/^line \d+\n/);
  });

  it("cuts a file it finds over the cap down at once", () => {
    const file = scratch();
    writeFileSync(file, "old line\n".repeat(2_000));
    new CappedLog(file, 4_096);
    expect(statSync(file).size).toBeLessThanOrEqual(4_096);
    expect(readFileSync(file, "utf8")).toMatch(MARKER);
  });

  it("redacts a key even when it arrives split across two chunks, with the other stream in between", () => {
    const file = scratch();
    registerSecrets(["the-real-key-0123456789"]);
    try {
      const log = new CappedLog(file);
      log.write("provider said: bad key the-real-", "stderr");
      log.write("stdout line\n", "stdout");
      log.write("key-0123456789\nnext\n", "stderr");
      log.flush();
      expect(readFileSync(file, "utf8")).toBe("stdout line\nprovider said: bad key [REDACTED]\nnext\n");
    } finally {
      registerSecrets([]);
    }
  });

  it("keeps a character split across two chunks whole", () => {
    const file = scratch();
    const log = new CappedLog(file);
    const bytes = Buffer.from("naïve — ok\n");
    log.write(bytes.subarray(0, 3));
    log.write(bytes.subarray(3));
    log.flush();
    expect(readFileSync(file, "utf8")).toBe("naïve — ok\n");
  });
});

describe("a real worker's log (flooder)", () => {
  it("10 MiB on each of stdout and stderr leaves at most LOG_CAP_BYTES on disk, with the last lines of both", async () => {
    const { root, dirs } = tempDirs();
    const dir = path.join(root, "flood");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "arena.toml"), 'id = "flood"\ndescription = "a flood of output"\ntools = ["search"]\nsystem_prompt_intent = "Answer."\n');
    writeFileSync(path.join(dir, "dataset.jsonl"), JSON.stringify({ id: "f-1", input: "flood", checks: [{ type: "contains", value: "fine" }] }));
    writeFileSync(path.join(dir, "mock_script.json"), JSON.stringify({ scenarios: [{ match: "flood", turns: [{ content: "fine" }] }] }));
    // Sampled while the worker writes: the cap must hold throughout, not only once it has exited.
    let largest = 0;
    const sample = setInterval(() => {
      for (const f of readdirSync(dirs.logDir, { withFileTypes: true })) if (f.isFile()) largest = Math.max(largest, statSync(path.join(dirs.logDir, f.name)).size);
    }, 1);
    let records;
    try {
      ({ records } = await quickRun({ dirs, arenaDirs: [dir], adapters: [FIXTURES.flooder], corpusPath: OUR_CORPUS, concurrency: 1 }));
    } finally {
      clearInterval(sample);
    }
    expect(records[0]!.frameworks[0]!.items.map((i) => i.passed)).toEqual([true]);
    const logs = readdirSync(dirs.logDir);
    expect(logs).toEqual(["flooder__w0.log"]);
    const file = path.join(dirs.logDir, logs[0]!);
    expect(statSync(file).size).toBeLessThanOrEqual(LOG_CAP_BYTES);
    expect(largest).toBeLessThanOrEqual(LOG_CAP_BYTES);
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(MARKER);
    const lines = text.replace(MARKER, "").trimEnd().split("\n");
    // Both streams' final lines made it, after every numbered line.
    expect(lines).toContain("stdout last line (111546 before it)");
    expect(lines).toContain("stderr last line (111546 before it)");
    for (const l of lines) expect(l).toMatch(/^(std(out|err) \d+ x{80}|std(out|err) last line \(\d+ before it\)|\[(worker|orchestrator)\b.*)$/);
  }, 20_000);
});
