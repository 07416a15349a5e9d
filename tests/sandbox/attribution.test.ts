/**
 * The rule that decides which of a watched worker's window's changes are charged to it
 * (orchestrator/supervisor/sandbox/attribution.ts), on made-up changes and evidence; and the
 * areas' shape around it: owned versus shared, the harness's outputs left out of the repository
 * area wherever ARENA_OUTPUT_ROOT puts them, and symbolic links not followed.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { attribute, charged, type Evidence } from "../../orchestrator/supervisor/sandbox/attribution.ts";
import { outputRootsOf, snapshot, watchedAreas, watches, type Area, type Change } from "../../orchestrator/supervisor/sandbox/watch.ts";
import { watchedWrites } from "../../orchestrator/probes/judges/writes.ts";

const OWNED: Area = { label: "the repository", root: "/repo", deep: true, shared: false, skip: [] };
const SHARED: Area = { label: "the temp dir", root: "/tmp", deep: false, shared: true, skip: [] };
const change = (area: Area, p: string, what: Change["what"] = "created"): Change => ({ area, path: p, what });

/** No evidence at all: what a diff alone gives. */
const NONE: Evidence = { claimed: () => false, ours: () => new Set(), tree: () => undefined, others: () => new Map() };

describe("attribution", () => {
  it("charges an owned area's change with no evidence, and leaves a shared area's unattributed", () => {
    const verdicts = attribute([change(OWNED, "/repo/store.json"), change(SHARED, "/tmp/arena-bridge-Ab12Cd"), change(SHARED, "/tmp/err.txt", "modified")], NONE);
    expect(verdicts.map((v) => (v.charged ? "charged" : v.excuse))).toEqual(["charged", "unattributed", "unattributed"]);
    expect(charged(verdicts)).toEqual(["created store.json in the repository (/repo/store.json)"]);
  });

  it("charges a shared area's change the worker's tree held open for writing, naming the pid", () => {
    const ev: Evidence = { ...NONE, tree: (p) => (p === "/tmp/stash" ? 4242 : undefined) };
    const texts = charged(attribute([change(SHARED, "/tmp/stash"), change(SHARED, "/tmp/other")], ev));
    expect(texts).toEqual(["created stash in the temp dir, open for writing by pid 4242 of the worker's tree (/tmp/stash)"]);
    // The probes' judge still reads the path out of it.
    expect(watchedWrites({ record: { isolation: { level: "watched", network: "shared", tool: "t", violations: texts.map((t) => `w0: ${t}`) } } } as never)).toEqual(["/tmp/stash"]);
  });

  it("never charges what the orchestrator holds open, even when the tree held it too", () => {
    const ev: Evidence = { ...NONE, ours: (ps) => new Set(ps.filter((p) => p.endsWith("err.txt"))), tree: () => 7 };
    expect(attribute([change(OWNED, "/repo/err.txt", "modified"), change(SHARED, "/tmp/err.txt", "modified")], ev).map((v) => v.charged || v.excuse)).toEqual(["ours", "ours"]);
  });

  it("excuses an owned area's change a process outside the tree holds open for writing; asks only about what is left", () => {
    const asked: string[][] = [];
    const ev: Evidence = {
      ...NONE,
      claimed: (p) => p.startsWith("/repo/other-worker/"),
      others: (ps) => {
        asked.push([...ps]);
        return new Map([["/repo/app.log", 99]]);
      },
    };
    const verdicts = attribute([change(OWNED, "/repo/app.log", "modified"), change(OWNED, "/repo/other-worker/x"), change(SHARED, "/tmp/y"), change(OWNED, "/repo/z")], ev);
    expect(verdicts.map((v) => (v.charged ? "charged" : `${v.excuse}${v.pid ? ` ${v.pid}` : ""}`))).toEqual(["foreign-writer 99", "claimed", "unattributed", "charged"]);
    expect(asked).toEqual([["/repo/app.log", "/repo/z"]]);
  });

  it("does not walk the machine's processes when no owned change is left to explain", () => {
    const ev: Evidence = { ...NONE, others: () => { throw new Error("must not be asked"); } };
    expect(attribute([change(SHARED, "/tmp/a")], ev)).toHaveLength(1);
    expect(attribute([], ev)).toEqual([]);
  });
});

describe("areas", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("finds the output roots beside a checkpoint folder laid out as the store lays it out", () => {
    expect(outputRootsOf("/repo/out/checkpoints/20260101T000000000Z-abcdef/s1/vanilla")).toEqual(["/repo/out/runs", "/repo/out/checkpoints", "/repo/out/results"]);
    expect(outputRootsOf("/somewhere/else/vanilla")).toEqual([]);
  });

  it("leaves the harness's outputs out of the repository area when ARENA_OUTPUT_ROOT puts them inside it; shared areas are marked", () => {
    const areas = watchedAreas("/repo", "/repo/out/checkpoints/run/s1/vanilla", "/home/u", []);
    const repo = areas.find((a) => a.label === "the repository")!;
    expect(repo.shared).toBe(false);
    expect(repo.skip).toEqual(expect.arrayContaining(["/repo/out/runs", "/repo/out/results", "/repo/out/checkpoints", "/repo/runs", "/repo/node_modules", "/repo/.venv"]));
    expect(areas.find((a) => a.label === "the checkpoint root")).toMatchObject({ root: "/repo/out/checkpoints/run/s1", shared: false });
    expect(areas.filter((a) => a.shared).map((a) => a.label)).toEqual(["the temp dir", "/var/tmp", "/dev/shm", "HOME"]);
    expect(watches(areas, "/repo/out/runs/run/journal.jsonl")).toBe(false);
    expect(watches(areas, "/repo/src/x.ts")).toBe(true);
  });

  it("notes a shallow area's folders as folders and stamps its files; a deep one walks the folders", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "arena-areas-"));
    mkdirSync(path.join(dir, "sub"));
    writeFileSync(path.join(dir, "sub", "inner.txt"), "x");
    writeFileSync(path.join(dir, "top.txt"), "xy");
    const shallow = snapshot({ label: "t", root: dir, deep: false, shared: true, skip: [] });
    expect(shallow.get(path.join(dir, "sub"))).toBe("dir");
    expect(shallow.get(path.join(dir, "top.txt"))).toMatch(/^[\d.]+:2$/);
    expect(shallow.has(path.join(dir, "sub", "inner.txt"))).toBe(false);
    const deep = snapshot({ label: "t", root: dir, deep: true, shared: false, skip: [] });
    expect([...deep.keys()].map((p) => path.relative(dir!, p)).sort()).toEqual(["sub/inner.txt", "top.txt"]);
  });

  it("lists a symbolic link as an entry and does not walk through it", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "arena-areas-"));
    mkdirSync(path.join(dir, "real"));
    writeFileSync(path.join(dir, "real", "f.txt"), "x");
    symlinkSync(path.join(dir, "real"), path.join(dir, "latest"));
    symlinkSync("/", path.join(dir, "root"));
    const snap = snapshot({ label: "t", root: dir, deep: true, shared: false, skip: [] });
    expect([...snap.keys()].map((p) => path.relative(dir!, p)).sort()).toEqual(["latest", "real/f.txt", "root"]);
  });
});
