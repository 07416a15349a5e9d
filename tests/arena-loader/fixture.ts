/**
 * Builds throw-away arena folders in a temp dir. Each test starts from a valid arena and breaks
 * one thing, so every assertion is about exactly one message.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { ArenaLoadError } from "../../orchestrator/arena/diagnostics.ts";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { validateArena } from "../../orchestrator/arena/validate.ts";

export const VALID_TOML = `id = "demo"
description = "A demo arena."
tools = ["search", "calculator"]
system_prompt_intent = """
Answer the question.
"""
`;

export const VALID_DATASET = `{"id": "d-01", "input": "What is 2 plus 2?", "checks": [{"type": "contains", "value": "4"}]}
`;

export const VALID_SCRIPT = `{
  "scenarios": [
    {
      "match": "2 plus 2",
      "turns": [
        {"tool_calls": [{"name": "calculator", "arguments": {"expr": "2 + 2"}}]},
        {"content": "4"}
      ]
    }
  ]
}
`;

/** Something other than a regular file in the file's place. */
export type SpecialFile = { readonly kind: "fifo" } | { readonly kind: "directory" } | { readonly kind: "symlink"; readonly target: string };

export type FileContent = string | Uint8Array | SpecialFile | null;

/** Puts `content` at `file` (which must not exist yet). FIFOs need `mkfifo` (Linux, macOS). */
export function putFile(file: string, content: Exclude<FileContent, null>): void {
  if (typeof content === "string" || content instanceof Uint8Array) writeFileSync(file, content);
  else if (content.kind === "fifo") execFileSync("mkfifo", [file]);
  else if (content.kind === "directory") mkdirSync(file);
  else symlinkSync(content.target, file);
}

export interface ArenaFiles {
  /** `null` = leave the file out. */
  readonly toml?: FileContent;
  readonly dataset?: FileContent;
  readonly script?: FileContent;
  /** cases.json; left out unless given. */
  readonly cases?: FileContent;
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A fresh temp dir that holds arena folders (it plays the role of `arenas/`), under `base`. */
export function tempRoot(base: string = tmpdir()): string {
  const root = mkdtempSync(path.join(base, "arena-test-"));
  roots.push(root);
  return root;
}

export function writeArena(root: string, id: string, files: ArenaFiles = {}): string {
  const dir = path.join(root, id);
  mkdirSync(dir, { recursive: true });
  const put = (name: string, content: FileContent | undefined, fallback: string) => {
    const c = content === undefined ? fallback : content;
    if (c !== null) putFile(path.join(dir, name), c);
  };
  put("arena.toml", files.toml, VALID_TOML.replace('id = "demo"', `id = "${id}"`));
  put("dataset.jsonl", files.dataset, VALID_DATASET);
  put("mock_script.json", files.script, VALID_SCRIPT);
  if (files.cases) put("cases.json", files.cases, "");
  return dir;
}

export interface Outcome {
  readonly errors: string[];
  readonly warnings: string[];
  /** The loader's message, or `undefined` when it loaded. */
  readonly loadError: string | undefined;
}

/**
 * Validates (and loads) an arena `demo` built from `files`; paths in messages start at `demo/`.
 * The loader's `ArenaLoadError` is caught; any other exception (a crash) fails the test.
 */
export function check(files: ArenaFiles, id = "demo"): Outcome {
  const root = tempRoot();
  const dir = writeArena(root, id, files);
  const result = validateArena(dir, { cwd: root });
  let loadError: string | undefined;
  try {
    loadArena(dir, { cwd: root });
  } catch (err) {
    if (!(err instanceof ArenaLoadError)) throw err;
    loadError = err.message;
  }
  // Every arena the loader refuses must fail validation too, or `arena validate` would pass
  // arenas that cannot run. Checked on every fixture the tests build.
  if (loadError !== undefined && result.errors.length === 0) {
    throw new Error(`loader refused an arena the validator passed: ${loadError}`);
  }
  return { errors: result.errors.map((d) => d.message), warnings: result.warnings.map((d) => d.message), loadError };
}

/** One dataset line per argument. */
export function jsonl(...lines: unknown[]): string {
  return lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n";
}

export function script(scenarios: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ scenarios, ...extra }, null, 2) + "\n";
}
