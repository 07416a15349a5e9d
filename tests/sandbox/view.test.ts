/**
 * What a sealed worker sees (supervisor/sandbox/view.ts), as a pure plan: which folders are
 * covered by throwaway layers, and which paths are bound back read-only over them.
 */
import { describe, expect, it } from "vitest";
import { sealedView } from "../../orchestrator/supervisor/sandbox/view.ts";

const base = { repo: "/src/arena", tmp: "/tmp", corpusPath: "/src/arena/arenas/corpus.json", readable: [] as string[] };

describe("the sealed view", () => {
  it("covers the repository, the temp dir and every hidden root not already inside one, never /", () => {
    const view = sealedView({ ...base, module: "/src/arena/workers/adapters/vanilla/index.ts", hidden: ["/data/out/runs", "/tmp/run-1/checkpoints", "/src/arena/arenas/tool_use", "/"] });
    expect(view.covered).toEqual(["/data/out/runs", "/src/arena", "/tmp"]);
  });

  it("binds back the worker tree and the corpus, but not the data beside them", () => {
    const view = sealedView({ ...base, module: "/src/arena/workers/adapters/vanilla/index.ts", hidden: [] });
    expect(view.readable).toEqual([
      "/src/arena/.venv",
      "/src/arena/arenas/corpus.json",
      "/src/arena/contract",
      "/src/arena/node_modules",
      "/src/arena/package.json",
      "/src/arena/packages",
      "/src/arena/workers",
    ]);
    expect(view.readable.some((p) => p.endsWith("/arenas") || p.includes("/runs") || p.includes("/fixtures"))).toBe(false);
  });

  it("a fixture gets its own folder and the shared fixture support, not the hostile arenas", () => {
    const view = sealedView({ ...base, module: "/src/arena/fixtures/adapters/tag-forger/index.ts", hidden: [] });
    expect(view.readable).toContain("/src/arena/fixtures/adapters/tag-forger");
    expect(view.readable).toContain("/src/arena/fixtures/support");
    expect(view.readable.some((p) => p.startsWith("/src/arena/fixtures/arenas"))).toBe(false);
  });

  it("an adapter outside every covered folder needs nothing bound back; one in the temp dir gets its folder", () => {
    expect(sealedView({ ...base, module: "/home/me/my-adapter/index.ts", hidden: [] }).readable).not.toContain("/home/me/my-adapter");
    expect(sealedView({ ...base, module: "/tmp/t-1/adapter.ts", hidden: [] }).readable).toContain("/tmp/t-1");
  });
});
