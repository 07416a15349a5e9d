/**
 * A worker's working directory is the repository, as under `pnpm bench`, never the folder the
 * user ran `arena` from (sandbox/index.ts `Launch.cwd`). From a folder under the temp dir, which a
 * sealed worker's view covers with a layer, every sealed worker failed to start (bwrap could not
 * enter it); from a folder holding a `json.py`, every Python worker imported that file instead of
 * the standard library's (`python -m` puts its working directory first on the import path). Both
 * run the real CLI from such a folder: sealed, and watched for the Python host.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectBwrap } from "../../orchestrator/supervisor/sandbox/mode.ts";
import { arenaCli, outputRoot } from "../support/cli.ts";

/** A folder under the temp dir with a `json.py` that ends any interpreter importing it. */
function userFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "arena-user-cwd-"));
  writeFileSync(path.join(dir, "json.py"), 'raise SystemExit("imported json.py from the user\'s folder")\n');
  return dir;
}

/** Every item of the latest run's records, as `adapter item passed`. */
function outcomes(root: string): string[] {
  const records = path.join(root, "runs", "latest", "records");
  return readdirSync(records).flatMap((f) => {
    const record = JSON.parse(readFileSync(path.join(records, f), "utf8")) as { frameworks: { framework: string; items: { item_id: string; passed: boolean }[] }[] };
    return record.frameworks.flatMap((fw) => fw.items.map((i) => `${fw.framework} ${i.item_id} ${i.passed}`));
  });
}

const ARGS = ["run", "--arena", "tool_use", "--item", "tu-01", "--item", "tu-07", "--quiet"];

describe("a worker's working directory", () => {
  it.skipIf(!detectBwrap().ok)("is its own, not the user's: sealed workers of both hosts start and pass from a folder under the temp dir", async () => {
    const { root, env } = outputRoot();
    const r = await arenaCli([...ARGS, "--framework", "vanilla", "--framework", "vanilla-py"], { ...env, ARENA_SANDBOX: "bwrap" }, userFolder());
    expect(r.stderr).not.toContain("Can't chdir");
    expect(r.exitCode).toBe(0);
    expect(outcomes(root).sort()).toEqual(["vanilla tu-01 true", "vanilla tu-07 true", "vanilla-py tu-01 true", "vanilla-py tu-07 true"]);
  }, 120_000);

  it("keeps a Python worker's imports its own when watched: a json.py in the user's folder is not imported", async () => {
    const { root, env } = outputRoot();
    const r = await arenaCli([...ARGS, "--framework", "vanilla-py"], { ...env, ARENA_SANDBOX: "off" }, userFolder());
    expect(r.exitCode).toBe(0);
    expect(outcomes(root).sort()).toEqual(["vanilla-py tu-01 true", "vanilla-py tu-07 true"]);
  }, 120_000);
});
