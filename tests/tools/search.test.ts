import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CorpusError, DEFAULT_CORPUS_PATH, loadCorpus, search, type Corpus } from "../../contract/tools/index.ts";
import { DATA_MAX_DEPTH, parsePyJson, toJs } from "@agentic-arena/py-semantics";
import { describeWithReference, REFERENCE_CORPUS, REPO_ROOT } from "../support/reference.ts";

const TINY: Corpus = [
  { title: "Alpha", text: "The first letter. Tower of letters." },
  { title: "Beta", text: "The second letter, after alpha." },
  { title: "Gamma ray", text: "High-energy light; not a letter here." },
  { title: "Delta", text: "A river mouth, and a letter." },
];

describe("search (tools.md §5)", () => {
  it("ranks by the number of shared tokens, ties in corpus order", () => {
    expect(search(TINY, "alpha letter")).toBe(
      "[Alpha] The first letter. Tower of letters.\n\n[Beta] The second letter, after alpha.\n\n[Gamma ray] High-energy light; not a letter here.",
    );
  });

  it("tokenizes on ASCII letters and digits, case-insensitively, as a set", () => {
    expect(search(TINY, "GAMMA!!! gamma-RAY")).toBe("[Gamma ray] High-energy light; not a letter here.");
    expect(search(TINY, "letters")).toBe("[Alpha] The first letter. Tower of letters.");
    expect(search(TINY, "énergie")).toBe("No results.");
  });

  it("answers No results. for an empty query or no overlap", () => {
    expect(search(TINY, "")).toBe("No results.");
    expect(search(TINY, "   ...!?")).toBe("No results.");
    expect(search(TINY, "zebra")).toBe("No results.");
  });

  it("slices like Python: k = 0 gives nothing, negative k drops from the end", () => {
    expect(search(TINY, "letter", 0)).toBe("No results.");
    expect(search(TINY, "letter", 1n)).toBe("[Alpha] The first letter. Tower of letters.");
    expect(search(TINY, "letter", 100)).toBe(search(TINY, "letter", 4));
    expect(search(TINY, "letter", -1).split("\n\n").map((s) => s.slice(0, 7))).toEqual(["[Alpha]", "[Beta] ", "[Gamma "]);
    expect(search(TINY, "letter", -3)).toBe("[Alpha] The first letter. Tower of letters.");
    expect(search(TINY, "letter", -4)).toBe("No results.");
    expect(search(TINY, "letter", -(10n ** 30n))).toBe("No results.");
    expect(search(TINY, "letter", 10n ** 30n).split("\n\n")).toHaveLength(4);
  });
});

describe("loadCorpus", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "arena-corpus-"));
  const write = (name: string, text: string): string => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it("points at the repository's corpus by default", () => {
    expect(DEFAULT_CORPUS_PATH).toBe(path.join(REPO_ROOT, "arenas", "corpus.json"));
  });

  it("reads an array of {title, text} in order", () => {
    const file = write("ok.json", '[{"title": "A", "text": "a", "extra": 1}, {"title": "B", "text": "b"}]');
    expect(loadCorpus(file)).toEqual([
      { title: "A", text: "a" },
      { title: "B", text: "b" },
    ]);
  });

  // loadCorpus reads with JSON.parse first (a worker start's ~5 ms); for a corpus it must read what
  // Python's json reads, the Python-semantics parser being the reference.
  it.each([
    ["duplicate keys", '[{"title": "A", "title": "B", "text": "a", "text": "b"}]'],
    ["escapes", String.raw`[{"title": "\u00e9\n\t\"\\\/\b\f\r", "text": "\ud83d\ude00 and é"}]`],
    ["a lone surrogate", String.raw`[{"title": "\ud800", "text": "\udfff x"}]`],
    ["extra keys and whitespace", ' \r\n\t[ {"text" :"t","title":"T","n":[1,{"a":null}]} ]\n'],
    ["an empty corpus", "[]"],
  ])("reads %s as Python's json does", (name, text) => {
    const python = toJs(parsePyJson(text, { maxDepth: DATA_MAX_DEPTH })) as { title: string; text: string }[];
    expect(loadCorpus(write(`${name}.json`, text))).toEqual(python.map(({ title, text: body }) => ({ title, text: body })));
  });

  it.each([
    ["NaN, which only Python's json reads", '[{"title": NaN, "text": "a"}]', /0\.title/],
    ["a byte-order mark", '\ufeff[{"title": "A", "text": "a"}]', /not valid JSON/],
  ])("leaves %s to the Python-semantics parser's verdict", (name, text, reason) => {
    expect(() => loadCorpus(write(`${name}.json`, text))).toThrow(reason);
  });

  it.each([
    ["missing.json", null, /cannot read/],
    ["broken.json", "[{", /not valid JSON/],
    ["object.json", '{"title": "A", "text": "a"}', /expected an array of \{title: string, text: string\}/],
    ["number-title.json", '[{"title": 1, "text": "a"}]', /0\.title/],
    ["no-text.json", '[{"title": "A"}]', /0\.text/],
  ])("rejects %s with an error naming the file", (name, text, reason) => {
    const file = text === null ? path.join(dir, name) : write(name, text);
    let error: unknown;
    try {
      loadCorpus(file);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CorpusError);
    expect((error as CorpusError).file).toBe(file);
    expect((error as Error).message.startsWith(`${file}: `)).toBe(true);
    expect((error as Error).message).toMatch(reason);
  });
});

describeWithReference("search over the reference corpus", () => {
  const corpus = loadCorpus(REFERENCE_CORPUS);

  it("has the 27 entries", () => {
    expect(corpus).toHaveLength(27);
  });

  it('answers "Eiffel Tower" with Eiffel Tower, Tokyo Tower, CN Tower (687 chars)', () => {
    const out = search(corpus, "Eiffel Tower");
    expect(out).toHaveLength(687);
    expect(out.split("\n\n").map((hit) => hit.slice(0, hit.indexOf("]") + 1))).toEqual([
      "[Eiffel Tower]",
      "[Tokyo Tower]",
      "[CN Tower]",
    ]);
  });

  it("contains none of the fault markers", () => {
    const text = corpus.map((d) => `${d.title} ${d.text}`.toLowerCase()).join("\n");
    for (const marker of ["error", "invalid", "unknown tool", "required", "no results"]) {
      expect(text).not.toContain(marker);
    }
    expect(text).toContain("observation");
  });
});
