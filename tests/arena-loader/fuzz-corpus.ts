/**
 * A seeded generator of malformed arena folders: mutations of one valid arena, so every case is
 * "almost right" and reaches deep into the validator and loader instead of failing on line 1.
 * Deterministic (the harness's own seeded PRNG, orchestrator/stats/prng.ts): a failing case number reproduces from the seed alone.
 */
import type { ArenaFiles, FileContent } from "./fixture.ts";
import { mulberry32 } from "../../orchestrator/stats/prng.ts";

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

export type FileKey = "toml" | "dataset" | "script";
const FILE_KEYS: readonly FileKey[] = ["toml", "dataset", "script"];

// Non-ASCII text on purpose, so truncations and flips can split a UTF-8 sequence.
const TOML_FIELDS: Record<string, string> = {
  id: '"demo"',
  description: '"A demo arena — café."',
  tools: '["search", "calculator"]',
  durable: "false",
  system_prompt_intent: '"""\nAnswer the question.\n"""',
};
const tomlText = (fields: Record<string, string>) => Object.entries(fields).map(([k, v]) => `${k} = ${v}\n`).join("");

const ITEMS = [
  { id: "d-01", input: "What is 2 plus 2? ✓", checks: [{ type: "contains", value: "4" }, { type: "tool_used", name: "calculator" }] },
  {
    id: "d-02",
    input: "Who built the tower, and when?",
    note: "n",
    checks: [{ type: "iregex", value: "\\beiffel\\b" }, { type: "numeric_equals", value: 1889, tol: 0.5 }, { type: "call_counts", counts: { search: 1 } }],
  },
  {
    id: "d-03",
    input: "Give JSON please",
    resume_with: "approve",
    checks: [
      { type: "json_schema", schema: { type: "object", required: ["a"], properties: { a: { type: "integer" } } } },
      { type: "sentence_count", min: 1, max: 3 },
      { type: "json_path_equals", path: "a", value: 1 },
    ],
  },
];
const datasetText = (items: readonly unknown[]) => `# fuzz base\n\n${items.map((i) => JSON.stringify(i)).join("\n")}\n`;

const SCRIPT = {
  _comment: "base",
  scenarios: [
    { match: "2 plus 2", turns: [{ tool_calls: [{ name: "calculator", arguments: { expr: "2 + 2" } }] }, { content: "4" }] },
    { match: "tower", turns: [{ tool_calls: [{ name: "search", arguments: { query: "tower" }, id: "call_1" }] }, { content: "Eiffel, 1889." }] },
    { match: "give json", turns: [{ content: '{"a": 1}' }] },
  ],
  default: { turns: [{ content: "I don't know." }] },
};
const scriptText = (script: unknown) => `${JSON.stringify(script, null, 2)}\n`;

/** The valid arena every case starts from. */
export const BASE: Readonly<Record<FileKey, string>> = {
  toml: tomlText(TOML_FIELDS),
  dataset: datasetText(ITEMS),
  script: scriptText(SCRIPT),
};

export interface FuzzCase {
  readonly kind: string;
  readonly files: ArenaFiles;
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};

const WRONG_VALUES: readonly unknown[] = [null, 0, -1, 1.5, true, false, "", "x", [], [1, "a"], {}, { a: 1 }];
const WRONG_TOML = ["1", "1.5", "true", '"x"', "[]", '[1, "a"]', "{ a = 1 }", "1979-05-27T07:32:00Z", "nan", "-inf", "''''''"];
const HUGE_NUMBERS = ["1e400", "-1e400", `1${"0".repeat(5000)}`, "1.5e-400", "NaN", "-Infinity", "123456789012345678901234567890", "-0", "1E+2"];
const UNSAFE_IDS = ["../../../../tmp/x", "/etc/passwd", "..", ".", "", " ", "a b", "a/b", "a\\b", "x".repeat(129), "-lead", ".hidden", "nul\u0000x", "é", "\u202e", "x\n"];
const INVALID_UTF8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80]];
const LINE_BREAKS = ["\r", "\r\n", "\u2028", "\u0085", "\u000b", "\u000c", "\u001c", "\n\n\n"];
const DEPTHS = [63, 64, 65, 100, 1000, 5000, 20000];

type JsonPath = readonly (string | number)[];

/** Every path to a value inside `v` (the root excluded). */
function paths(v: unknown, prefix: JsonPath = []): JsonPath[] {
  if (v === null || typeof v !== "object") return [];
  const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  return entries.flatMap(([k, x]) => [[...prefix, k], ...paths(x, [...prefix, k])]);
}

function setAt(root: unknown, at: JsonPath, value: unknown): unknown {
  const copy = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const k of at.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[at[at.length - 1]!] = value;
  return copy;
}

function deep(rng: Rng, depth: number): string {
  return rng.int(2) === 0 ? "[".repeat(depth) + "]".repeat(depth) : `${'{"a": '.repeat(depth)}1${"}".repeat(depth)}`;
}

/** The field-type cases: every field of every file once, with a wrong value chosen by the seed. */
function wrongTypeCases(rng: Rng): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const key of Object.keys(TOML_FIELDS)) {
    out.push({ kind: "wrong type", files: { toml: tomlText({ ...TOML_FIELDS, [key]: rng.pick(WRONG_TOML) }) } });
  }
  for (const p of paths(ITEMS)) out.push({ kind: "wrong type", files: { dataset: datasetText(setAt(ITEMS, p, rng.pick(WRONG_VALUES)) as unknown[]) } });
  for (const p of paths(SCRIPT)) out.push({ kind: "wrong type", files: { script: scriptText(setAt(SCRIPT, p, rng.pick(WRONG_VALUES))) } });
  return out;
}

type Mutator = (rng: Rng, files: ArenaFiles) => ArenaFiles;

const bytesOf = (files: ArenaFiles, key: FileKey): Uint8Array | undefined => {
  const c = files[key] === undefined ? BASE[key] : files[key];
  return typeof c === "string" ? utf8(c) : c instanceof Uint8Array ? c : undefined;
};

/** A mutation of the bytes of one file, chosen at random among those that still are bytes. */
function onBytes(edit: (rng: Rng, b: Uint8Array) => Uint8Array): Mutator {
  return (rng, files) => {
    const keys = FILE_KEYS.filter((k) => bytesOf(files, k) !== undefined);
    if (keys.length === 0) return files;
    const key = rng.pick(keys);
    return { ...files, [key]: edit(rng, bytesOf(files, key)!) };
  };
}

const insertAt = (rng: Rng, b: Uint8Array, extra: Uint8Array) => {
  const at = rng.int(b.length + 1);
  return concat(b.subarray(0, at), extra, b.subarray(at));
};

const BYTE_MUTATORS: Record<string, Mutator> = {
  truncation: onBytes((rng, b) => b.subarray(0, rng.int(b.length))),
  "byte flip": onBytes((rng, b) => {
    const out = b.slice();
    for (let n = 1 + rng.int(4); n > 0 && out.length > 0; n--) out[rng.int(out.length)] = rng.int(256);
    return out;
  }),
  "invalid UTF-8": onBytes((rng, b) => insertAt(rng, b, new Uint8Array(rng.pick(INVALID_UTF8)))),
  BOM: onBytes((rng, b) => (rng.int(2) === 0 ? concat(utf8("\uFEFF"), b) : insertAt(rng, b, utf8("\uFEFF")))),
  "NUL bytes": onBytes((rng, b) => insertAt(rng, b, new Uint8Array(1 + rng.int(3)))),
  "random junk": onBytes((rng, b) => insertAt(rng, b, Uint8Array.from({ length: 1 + rng.int(64) }, () => rng.int(256)))),
  "line breaks": onBytes((rng, b) => utf8(new TextDecoder().decode(b).replaceAll("\n", rng.pick(LINE_BREAKS)))),
};

const MUTATORS: Record<string, Mutator> = {
  ...BYTE_MUTATORS,
  "deep nesting": (rng, files) => {
    const d = deep(rng, rng.pick(DEPTHS));
    const where = rng.int(3);
    if (where === 0) return { ...files, toml: `${BASE.toml}x = ${d.replaceAll('"a": ', "a = ")}\n` };
    if (where === 1) return { ...files, dataset: BASE.dataset.replace('"value":"4"', `"value":${d}`) };
    return { ...files, script: BASE.script.replace('"2 + 2"', d) };
  },
  "huge numbers": (rng, files) => {
    const n = rng.pick(HUGE_NUMBERS);
    const where = rng.int(4);
    if (where === 0) return { ...files, dataset: BASE.dataset.replace("1889", n) };
    if (where === 1) return { ...files, dataset: BASE.dataset.replace('"min":1', `"min":${n}`) };
    if (where === 2) return { ...files, script: BASE.script.replace('"2 + 2"', n) };
    return { ...files, toml: tomlText({ ...TOML_FIELDS, [rng.pick(Object.keys(TOML_FIELDS))]: n.replace("Infinity", "inf").replace("NaN", "nan") }) };
  },
  "duplicate ids": (rng, files) => {
    const items = [...ITEMS, { ...rng.pick(ITEMS), input: "What is 2 plus 2 again?" }];
    const matches = structuredClone(SCRIPT);
    matches.scenarios.push({ ...matches.scenarios[0]!, match: "2 PLUS 2" });
    return rng.int(2) === 0 ? { ...files, dataset: datasetText(items) } : { ...files, script: scriptText(matches) };
  },
  "unsafe ids": (rng, files) => {
    const id = rng.pick(UNSAFE_IDS);
    if (rng.int(2) === 0) return { ...files, toml: tomlText({ ...TOML_FIELDS, id: JSON.stringify(id) }) };
    return { ...files, dataset: datasetText(setAt(ITEMS, [rng.int(ITEMS.length), "id"], id) as unknown[]) };
  },
  "missing files": (rng, files) => ({ ...files, [rng.pick(FILE_KEYS)]: null, ...(rng.int(4) === 0 ? { [rng.pick(FILE_KEYS)]: null } : {}) }),
  "empty files": (rng, files) => ({ ...files, [rng.pick(FILE_KEYS)]: rng.pick(["", "\n\n  \n", "# only a comment\n", "\uFEFF"]) }),
  "not a regular file": (rng, files) => {
    const special: FileContent = rng.pick<FileContent>([
      { kind: "fifo" },
      { kind: "directory" },
      { kind: "symlink", target: "/dev/null" },
      { kind: "symlink", target: "no-such-target" },
    ]);
    return rng.int(5) === 0 ? { ...files, cases: special } : { ...files, [rng.pick(FILE_KEYS)]: special };
  },
  "long lines": (rng, files) => {
    const long = "x".repeat(65_536 + rng.int(458_752));
    const where = rng.int(4);
    if (where === 0) return { ...files, dataset: datasetText(setAt(ITEMS, [0, "input"], `What is 2 plus 2? ${long}`) as unknown[]) };
    if (where === 1) return { ...files, dataset: datasetText(setAt(ITEMS, [1, "id"], long) as unknown[]) };
    if (where === 2) return { ...files, script: scriptText(setAt(SCRIPT, ["scenarios", 2, "match"], long)) };
    return { ...files, toml: tomlText({ ...TOML_FIELDS, description: JSON.stringify(long) }) };
  },
  "prototype keys": (rng, files) => {
    const key = rng.pick(["__proto__", "constructor", "prototype", "toString"]);
    if (rng.int(2) === 0) return { ...files, toml: `${BASE.toml}${key} = 1\n` };
    return { ...files, dataset: BASE.dataset.replace('{"id":"d-01"', `{"${key}": {"id": 1}, "id":"d-01"`) };
  },
  "many items": (rng, files) => {
    const items = Array.from({ length: 300 + rng.int(700) }, (_, i) => ({ ...ITEMS[i % ITEMS.length]!, id: `d-${i}` }));
    return { ...files, dataset: datasetText(items) };
  },
  combination: (rng, files) => {
    let out = files;
    for (let n = 2 + rng.int(2); n > 0; n--) out = rng.pick(Object.values(BYTE_MUTATORS))(rng, out);
    return out;
  },
};

/** `count` random cases (kinds in turn, parameters from the seed), after one case per field type. */
export function fuzzCorpus(seed: number, count: number): FuzzCase[] {
  const rng = new Rng(seed);
  const kinds = Object.keys(MUTATORS);
  const random = Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    return { kind, files: MUTATORS[kind]!(rng, {}) };
  });
  return [...wrongTypeCases(rng), ...random];
}
