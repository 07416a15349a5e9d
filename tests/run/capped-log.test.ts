/** Worker logs are capped to their tail and redacted line by line. */
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CappedLog } from "../../orchestrator/supervisor/capped-log.ts";
import { registerSecrets } from "../../orchestrator/files/redact.ts";

describe("CappedLog", () => {
  it("never grows past twice the cap, and keeps the newest lines", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "arena-log-")), "w0.log");
    const log = new CappedLog(file, 10_000);
    for (let i = 0; i < 5_000; i++) log.write(`line ${i} ${"x".repeat(40)}\n`);
    log.flush();
    expect(statSync(file).size).toBeLessThanOrEqual(20_000);
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(/^\[log truncated: kept the last \d+ of \d+ bytes\]\n/);
    expect(text.trimEnd().endsWith(`line 4999 ${"x".repeat(40)}`)).toBe(true);
  });
  it("redacts a key even when it arrives split across two chunks", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "arena-log-")), "w0.log");
    registerSecrets(["the-real-key-0123456789"]);
    try {
      const log = new CappedLog(file);
      log.write("provider said: bad key the-real-");
      log.write("key-0123456789\nnext\n");
      log.flush();
      expect(readFileSync(file, "utf8")).toBe("provider said: bad key [REDACTED]\nnext\n");
    } finally {
      registerSecrets([]);
    }
  });
});
