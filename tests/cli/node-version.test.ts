/**
 * bin.mjs on a Node that is too old says so in one line and exits 2, instead of dying with a
 * SyntaxError stack (Node 20 has no `enableCompileCache`, and a named import of it fails before
 * any line runs). Run with the system Node, which on the project VM and in CI is Node 20.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/reference.ts";

const BIN = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");
const SYSTEM_NODE = "/usr/bin/node";

/** The system Node's version if it is older than 24, else why the test cannot run here. */
function oldNode(): { version: string } | { skip: string } {
  if (!existsSync(SYSTEM_NODE)) return { skip: `${SYSTEM_NODE} is missing` };
  const version = execFileSync(SYSTEM_NODE, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
  if (Number(version.split(".")[0]) >= 24) return { skip: `${SYSTEM_NODE} is Node ${version}, not older than 24` };
  return { version };
}

const old = oldNode();
const required = readFileSync(BIN, "utf8").match(/const REQUIRED_NODE = "([\d.]+)";/)?.[1];

describe("bin.mjs and the Node version", () => {
  it("states the same minimum as package.json's engines", () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { engines: { node: string } };
    expect(required).toBeDefined();
    expect(pkg.engines.node).toBe(`>=${required}`);
  });

  // Skipped only when there is no older Node to try it with, and the title says so.
  it.skipIf("skip" in old)(
    `on an older Node: one line on stderr, exit 2, no stack${"skip" in old ? ` — SKIPPED: ${old.skip}` : ""}`,
    async () => {
      const version = (old as { version: string }).version;
      const run = await execa(SYSTEM_NODE, [BIN, "run", "--arena", "tool_use", "--framework", "vanilla"], { cwd: REPO_ROOT, reject: false });
      expect(run.exitCode).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `arena: needs Node >= ${required}, but this is Node ${version} (${SYSTEM_NODE}); ` +
          "run it as `pnpm arena …` from the project, which uses the project's own Node 24",
      );
      expect(run.stderr).not.toMatch(/SyntaxError|\n\s+at /);
    },
  );

  it("on the project's Node, `arena --help` still prints the usage and exits 0", async () => {
    const run = await execa(process.execPath, [BIN, "--help"], { cwd: REPO_ROOT, reject: false });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^usage: arena <command> \[options\]/);
    expect(run.stderr).toBe("");
  });
});
