/**
 * The corpus is input like the arena files (`--corpus FILE`), and every worker reads it: a FIFO
 * there would block every build, 5,000-deep JSON would overflow the stack. (Kept next to the
 * arena-file tests because the rules are the same; tests/tools/search.test.ts covers the rest.)
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_MAX_DEPTH } from "@agentic-arena/py-semantics";
import { CorpusError, loadCorpus } from "../../contract/tools/search.ts";
import { putFile, tempRoot, type SpecialFile } from "./fixture.ts";

const CORPUS = JSON.stringify([{ title: "Alpha", text: "The first letter." }]);

function corpusError(file: string): CorpusError {
  try {
    loadCorpus(file);
  } catch (err) {
    if (err instanceof CorpusError) return err;
    throw err;
  }
  throw new Error("expected the corpus not to load");
}

describe("loadCorpus on hostile files", () => {
  it.each<[string, SpecialFile, string]>([
    ["FIFO", { kind: "fifo" }, "a FIFO"],
    ["directory", { kind: "directory" }, "a directory"],
    ["symlink to a device", { kind: "symlink", target: "/dev/zero" }, "a character device"],
  ])("a %s is refused without being read", (_, special, kind) => {
    const file = path.join(tempRoot(), "corpus.json");
    putFile(file, special);
    const err = corpusError(file);
    expect(err.message).toBe(`${file}: not a regular file (${kind})`);
    expect(err.file).toBe(file);
  });

  it("a symlink to a regular file is followed", () => {
    const root = tempRoot();
    writeFileSync(path.join(root, "real.json"), CORPUS);
    putFile(path.join(root, "corpus.json"), { kind: "symlink", target: "real.json" });
    expect(loadCorpus(path.join(root, "corpus.json"))).toEqual([{ title: "Alpha", text: "The first letter." }]);
  });

  it(`nesting past ${DATA_MAX_DEPTH} levels is invalid JSON, not a stack overflow`, () => {
    const file = path.join(tempRoot(), "corpus.json");
    writeFileSync(file, `[${"[".repeat(5000)}${"]".repeat(5000)}]`);
    expect(corpusError(file).message).toBe(`${file}: not valid JSON: Nested deeper than ${DATA_MAX_DEPTH} levels: line 1 column 65 (char 64)`);
  });

  it("a missing file still says it cannot be read", () => {
    const file = path.join(tempRoot(), "absent.json");
    expect(corpusError(file).message).toContain(`${file}: cannot read: ENOENT`);
  });
});
