import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { warmStamp } from "../../orchestrator/supervisor/sandbox/compile-cache.ts";

// A sealed worker reads its compile cache read-only: a stamp that misses an edited source leaves
// every worker recompiling it on every start, with no way to rewrite the entry.
describe("the sealed compile cache's warm-up stamp", () => {
  let repo: string;
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  function tree(): { module: string; touch: (rel: string) => void } {
    repo = mkdtempSync(path.join(os.tmpdir(), "arena-stamp-"));
    const files = ["pnpm-lock.yaml", "contract/tools.ts", "workers/host.ts", "workers/adapters/demo/adapter.ts", "fixtures/support/wire.ts", "workers/adapters/demo/README.md"];
    for (const f of files) {
      mkdirSync(path.dirname(path.join(repo, f)), { recursive: true });
      writeFileSync(path.join(repo, f), "x");
      utimesSync(path.join(repo, f), 1_000, 1_000);
    }
    let clock = 2_000;
    return { module: path.join(repo, "workers/adapters/demo/adapter.ts"), touch: (rel) => utimesSync(path.join(repo, rel), clock, clock++) };
  }

  it.each(["contract/tools.ts", "workers/host.ts", "workers/adapters/demo/adapter.ts", "fixtures/support/wire.ts", "pnpm-lock.yaml"])("changes when %s changes", (rel) => {
    const { module, touch } = tree();
    const before = warmStamp(module, [], repo);
    expect(warmStamp(module, [], repo)).toBe(before);
    touch(rel);
    expect(warmStamp(module, [], repo)).not.toBe(before);
  });

  it("ignores what no worker compiles, and tells Node flags apart", () => {
    const { module, touch } = tree();
    const before = warmStamp(module, [], repo);
    touch("workers/adapters/demo/README.md");
    expect(warmStamp(module, [], repo)).toBe(before);
    expect(warmStamp(module, ["--import", "x"], repo)).not.toBe(before);
  });
});
