/**
 * What a mock run must not load: node:https (TLS, whose load reads the root certificates) is for a
 * live run's provider, and piscina with node:worker_threads for an item the scoring watchdog had to
 * stop. Each cost ~25 ms of CPU at every command's start (`node -e "require(…)"` against its floor).
 * The CLI is run as users run it, with a preload that lists the built-in modules it loaded.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { arenaCli, outputRoot } from "../support/cli.ts";

const PRELOAD = fileURLToPath(new URL("../support/module-list.cjs", import.meta.url));

describe("modules a mock run leaves unloaded", () => {
  it("one vanilla item: no https, tls or worker_threads in the orchestrator", async () => {
    const { root, env } = outputRoot();
    const list = path.join(root, "modules.txt");
    const r = await arenaCli(["run", "--quiet", "--framework", "vanilla", "--arena", "tool_use", "--item", "tu-01"], {
      ...env,
      NODE_OPTIONS: `--require ${PRELOAD}`,
      ARENA_TEST_MODULE_LIST: list,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const loaded = new Set(readFileSync(list, "utf8").split("\n").map((l) => l.replace(/^NativeModule /, "")));
    // The list is real: the run did load what it uses.
    expect(loaded.has("http")).toBe(true);
    expect(loaded.has("child_process")).toBe(true);
    for (const lazy of ["https", "tls", "worker_threads"]) expect(loaded.has(lazy), lazy).toBe(false);
  });
});
