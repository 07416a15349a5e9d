import { describe, expect, it } from "vitest";
import { check, VALID_DATASET, VALID_SCRIPT, VALID_TOML } from "./fixture.ts";

const utf8 = (s: string) => new TextEncoder().encode(s);
const withByte = (before: string, byte: number, after: string) => new Uint8Array([...utf8(before), byte, ...utf8(after)]);

describe("malformed files are errors with file and line, never a crash", () => {
  it("invalid UTF-8 in arena.toml stops validation", () => {
    const out = check({ toml: withByte('id = "demo"\ndescription = "caf', 0xe9, '"\n') });
    expect(out.errors).toEqual(["demo/arena.toml:2: invalid UTF-8 (byte 0xe9 at offset 30)"]);
    expect(out.loadError).toBe(out.errors[0]);
  });

  it("invalid UTF-8 in dataset.jsonl names the physical line", () => {
    const out = check({ dataset: withByte(`# c\r${VALID_DATASET}{"id": "d-02", "input": "x`, 0xff, '"}\n') });
    expect(out.errors).toEqual([expect.stringMatching(/^demo\/dataset\.jsonl:3: invalid UTF-8 \(byte 0xff at offset \d+\)$/)]);
  });

  it("invalid UTF-8 in mock_script.json (overlong and surrogate encodings too)", () => {
    for (const bytes of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]) {
      const raw = new Uint8Array([...utf8("{\n"), ...bytes, ...utf8('\n"scenarios": []}')]);
      const out = check({ script: raw });
      expect(out.errors).toEqual([`demo/mock_script.json:2: invalid UTF-8 (byte 0x${bytes[0]!.toString(16)} at offset 2)`]);
    }
  });

  it("malformed TOML is a one-line message", () => {
    const out = check({ toml: 'id = "demo"\nid = "again"\n' });
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]).toMatch(/^demo\/arena\.toml:2: invalid TOML \([^\n]+\)$/);
    expect(out.loadError).toBe(out.errors[0]);
  });

  it("malformed JSON in the script and dataset", () => {
    expect(check({ script: "" }).errors).toEqual(["demo/mock_script.json:1: invalid JSON (Expecting value)"]);
    expect(check({ dataset: '{"id": "d-01", "input": "x", "checks": [1,]}\n' }).errors).toEqual([
      "demo/dataset.jsonl:1: invalid JSON (Expecting value)",
    ]);
  });

  it("a BOM at the start of any file is accepted (the port may strip it)", () => {
    const bom = "\uFEFF";
    const out = check({ toml: bom + VALID_TOML, dataset: bom + VALID_DATASET, script: bom + VALID_SCRIPT });
    expect(out).toEqual({ errors: [], warnings: [], loadError: undefined });
  });

  it("a BOM anywhere else is data (not whitespace): a JSON error", () => {
    expect(check({ dataset: `${VALID_DATASET}\uFEFF{"id": "d-02"}\n` }).errors).toEqual(["demo/dataset.jsonl:2: invalid JSON (Expecting value)"]);
  });

  it("no truncation of any file crashes the validator or the loader", () => {
    // check() fails the test on any exception other than ArenaLoadError, and when the loader
    // refuses an arena the validator passed.
    const cut = (text: string) => Array.from({ length: text.length }, (_, i) => text.slice(0, i));
    for (const toml of cut(VALID_TOML)) check({ toml });
    for (const dataset of cut(VALID_DATASET)) check({ dataset });
    for (const script of cut(VALID_SCRIPT)) check({ script });
  });

  it("no value of the wrong type anywhere in the script or an item crashes either", () => {
    const replacements: unknown[] = [null, 0, 1.5, true, "", "x", [], ["x"], {}, { a: 1 }];
    const variants = (value: unknown): unknown[] => {
      const out: unknown[] = [...replacements];
      if (Array.isArray(value)) {
        value.forEach((v, i) => variants(v).forEach((w) => out.push(value.map((x, j) => (j === i ? w : x)))));
      } else if (value !== null && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) variants(v).forEach((w) => out.push({ ...value, [k]: w }));
      }
      return out;
    };
    for (const v of variants(JSON.parse(VALID_SCRIPT))) check({ script: JSON.stringify(v) });
    const item = { id: "d-01", input: "What is 2 plus 2?", resume_with: "approve", checks: [{ type: "call_counts", counts: { search: 1 } }, { type: "suspended", value: 1 }] };
    for (const v of variants(item)) check({ dataset: `${JSON.stringify(v)}\n` });
  });
});
