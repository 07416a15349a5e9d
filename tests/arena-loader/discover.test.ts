import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ArenaLookupError } from "../../orchestrator/arena/diagnostics.ts";
import { DEFAULT_ARENAS_DIR, listArenas, resolveArena } from "../../orchestrator/arena/discover.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { tempRoot, writeArena } from "./fixture.ts";

describe("listArenas / resolveArena", () => {
  it("defaults to <repo>/arenas", () => {
    expect(DEFAULT_ARENAS_DIR).toBe(path.join(REPO_ROOT, "arenas"));
  });

  it("lists sub-folders sorted, skipping hidden ones and files", () => {
    const root = tempRoot();
    writeArena(root, "zeta");
    writeArena(root, "alpha");
    mkdirSync(path.join(root, ".cache"));
    mkdirSync(path.join(root, "no_toml"));
    expect(listArenas(root).map((a) => a.id)).toEqual(["alpha", "no_toml", "zeta"]);
    expect(listArenas(root)[0]!.dir).toBe(path.join(root, "alpha"));
  });

  it("a missing arenas dir is a lookup error", () => {
    expect(() => listArenas(path.join(tempRoot(), "nope"))).toThrow(ArenaLookupError);
  });

  it("resolves an id in the arenas dir, or a path", () => {
    const root = tempRoot();
    const dir = writeArena(root, "alpha");
    expect(resolveArena("alpha", root)).toEqual({ id: "alpha", dir });
    expect(resolveArena(dir, "/nonexistent")).toEqual({ id: "alpha", dir });
    expect(resolveArena("./alpha", "/nonexistent", root)).toEqual({ id: "alpha", dir });
  });

  it("names the available arenas when an id is unknown", () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    writeArena(root, "beta");
    expect(() => resolveArena("gamma", root)).toThrow(`no such arena 'gamma' in ${root} (available: alpha, beta)`);
  });
});
