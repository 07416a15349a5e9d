/**
 * Output roots that cannot hold a run: kernel pseudo filesystems refused before any mkdir, a write
 * probe that leaves nothing behind when it fails, a write error on a descriptor that still names
 * its file, and run folders claimed exclusively.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { naming, OutputError, probeWritable } from "../../orchestrator/files/fs-error.ts";
import { pseudoFilesystemProblem } from "../../orchestrator/files/pseudo-fs.ts";
import { JournalWriter } from "../../orchestrator/store/journal.ts";
import { claimRunFolder, outputRoots } from "../../orchestrator/store/layout.ts";
import { resolveOutputRoots } from "../../orchestrator/cli/paths.ts";
import { ConfigError } from "../../orchestrator/config/values.ts";

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "arena-roots-"));

describe("pseudo filesystems", () => {
  it.each(["/proc", "/proc/self/fd", "/sys", "/sys/kernel/not-there/x", "/dev", "/dev/pts"])("%s is refused", (dir) => {
    expect(pseudoFilesystemProblem(dir)).toMatch(/^is under \/(proc|sys|dev), a kernel pseudo filesystem: nothing can be written there$/);
  });

  it("an ordinary folder, existing or not yet, is not; nor is /dev/shm, which is meant for files", () => {
    const dir = tmp();
    expect(pseudoFilesystemProblem(dir)).toBeUndefined();
    expect(pseudoFilesystemProblem(path.join(dir, "not", "yet"))).toBeUndefined();
    if (existsSync("/dev/shm")) expect(pseudoFilesystemProblem("/dev/shm/arena")).toBeUndefined();
  });

  it("ARENA_OUTPUT_ROOT on one is a ConfigError naming the variable; empty is the repo", () => {
    let caught: unknown;
    try {
      resolveOutputRoots({ ARENA_OUTPUT_ROOT: "/proc" }, "/");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe("ARENA_OUTPUT_ROOT");
    expect(resolveOutputRoots({ ARENA_OUTPUT_ROOT: " " }, "/").runsDir).toBe(resolveOutputRoots({}, "/").runsDir);
  });
});

describe("the write probe", () => {
  it("a probe that fails after its folders were made removes them: nothing is left to list", () => {
    const base = tmp();
    // Folders Linux can make (the path is under PATH_MAX) whose probe file's path is over it.
    const room = 4090 - base.length - "/.write-probe-00000000".length;
    const parts: string[] = [];
    for (let left = room + 10; left > 0; left -= 201) parts.push("d".repeat(Math.min(200, left - 1)));
    const dir = path.join(base, ...parts);
    expect(dir.length).toBeLessThan(4096);
    expect(() => probeWritable(dir)).toThrow(OutputError);
    expect(readdirSync(base)).toEqual([]);
  });

  it("a probe in a folder that was there leaves the folder, and no probe file", () => {
    const base = tmp();
    probeWritable(base);
    expect(readdirSync(base)).toEqual([]);
  });
});

describe("a write error without a path", () => {
  it("ENOSPC from a descriptor write names the file it was for, not '(unknown path)'", () => {
    if (!existsSync("/dev/full")) return expect.fail("needs /dev/full (Linux)");
    let caught: unknown;
    try {
      new JournalWriter("/dev/full").append({ type: "lane", arena: "a", lane: { available: false } as never });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(OutputError);
    expect((caught as OutputError).message).toBe("cannot write /dev/full: ENOSPC (no space left on device)");
  });

  it("naming() keeps an error's own path and leaves anything that is not an fs error alone", () => {
    const own = Object.assign(new Error("x"), { code: "ENOSPC", path: "/r/a.json" });
    expect((naming("/r/b.json", own) as OutputError).path).toBe("/r/a.json");
    const bug = new TypeError("bug");
    expect(naming("/r/b.json", bug)).toBe(bug);
  });
});

describe("claimRunFolder", () => {
  it("creates the run's folder exclusively and takes a new id when the first is taken", () => {
    const roots = outputRoots(tmp());
    const ids = ["20261201T080000123Z-aaaaaa", "20261201T080000123Z-aaaaaa", "20261201T080000123Z-bbbbbb"];
    const mint = () => ids.shift()!;
    const first = claimRunFolder(roots, new Date(), mint);
    expect(first.runId).toBe("20261201T080000123Z-aaaaaa");
    const second = claimRunFolder(roots, new Date(), mint);
    expect(second.runId).toBe("20261201T080000123Z-bbbbbb");
    expect(readdirSync(roots.runsDir).sort()).toEqual(["20261201T080000123Z-aaaaaa", "20261201T080000123Z-bbbbbb"]);
  });

  it("gives up after a few taken ids with the EEXIST, rather than looping", () => {
    const roots = outputRoots(tmp());
    mkdirSync(path.join(roots.runsDir, "20261201T080000123Z-cccccc"), { recursive: true });
    let minted = 0;
    expect(() => claimRunFolder(roots, new Date(), () => (minted++, "20261201T080000123Z-cccccc"))).toThrow(/EEXIST/);
    expect(minted).toBe(8);
  });
});
