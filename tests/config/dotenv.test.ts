/**
 * `.env` files that used to hang or be misread: a FIFO (every command blocked, past SIGINT), a
 * directory ("(unknown path)", exit 3), a line with no `=` (skipped silently); and the empty
 * ARENA_MODEL / ARENA_OUTPUT_ROOT, which stay the default and are said.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULTS, emptyValueNotes, LiveRefusedError, loadArenaConfig, readEnvironment } from "../../orchestrator/config/arena-config.ts";
import { ENVIRONMENT } from "../../orchestrator/cli/usage.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { DotenvError, parseDotenv } from "../../orchestrator/config/dotenv.ts";

const KEY = "sk-test-0123456789abcdefghij";
const dir = () => mkdtempSync(path.join(os.tmpdir(), "arena-dotenv-"));

function refusal(run: () => unknown): DotenvError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(DotenvError);
    return err as DotenvError;
  }
  throw new Error("expected a DotenvError");
}

describe(".env that is not a regular file", () => {
  it("a FIFO is refused without being opened (a blocking open would never return)", () => {
    const root = dir();
    execFileSync("mkfifo", [path.join(root, ".env")]);
    const err = refusal(() => readEnvironment({}, root));
    expect(err.message).toBe(`${path.join(root, ".env")}:1: not a regular file (a FIFO)`);
    expect(err.variable).toBe(".env");
  });

  it("a directory is refused naming it, not reported as an unwritable '(unknown path)'", () => {
    const root = dir();
    mkdirSync(path.join(root, ".env"));
    expect(refusal(() => readEnvironment({}, root)).message).toBe(`${path.join(root, ".env")}:1: not a regular file (a directory)`);
  });

  it("no .env at all is no values", () => {
    expect(readEnvironment({ ARENA_MODEL: "m" }, dir())).toEqual({ ARENA_MODEL: "m" });
  });
});

describe(".env lines", () => {
  it("a line without '=' is refused by file:line, and the line is not shown (it may be a key)", () => {
    const err = refusal(() => parseDotenv(`# comment\nARENA_MODEL=m\n${KEY}\n`, "/r/.env"));
    expect(err.message).toBe("/r/.env:3: no '=' on this line (expected KEY=value; the line is not shown)");
    expect(err.line).toBe(3);
    expect(err.message).not.toContain(KEY);
  });

  it("a line starting with '=' has no key: refused too", () => {
    expect(refusal(() => parseDotenv(`=${KEY}\n`, "/r/.env")).message).toBe("/r/.env:1: no key before '=' (expected KEY=value; the line is not shown)");
  });

  it("blank lines, comments and other programs' KEY=value lines are still fine", () => {
    expect(parseDotenv("\n# c\nOTHER_TOOL=1\nexport ARENA_MODEL=m\n", "/r/.env")).toEqual({ ARENA_MODEL: "m" });
  });
});

describe("empty ARENA_MODEL and ARENA_OUTPUT_ROOT", () => {
  it("are the default (harness.md §1) and each gets one line saying so; unset or set ones get none", () => {
    expect(emptyValueNotes({ ARENA_MODEL: " ", ARENA_OUTPUT_ROOT: "" })).toEqual([
      "note: ARENA_MODEL is set but empty: using the default model 'gpt-4.1-mini' (empty means the default)",
      "note: ARENA_OUTPUT_ROOT is set but empty: using the repository (empty means the default)",
    ]);
    expect(emptyValueNotes({ ARENA_MODEL: "m" })).toEqual([]);
    expect(emptyValueNotes({})).toEqual([]);
  });
});

it("a .env value is still read through the same file path (symlinks to a regular file are followed)", () => {
  const root = dir();
  writeFileSync(path.join(root, "real.env"), "ARENA_MODEL=linked\n");
  execFileSync("ln", ["-s", path.join(root, "real.env"), path.join(root, ".env")]);
  expect(readEnvironment({}, root).ARENA_MODEL).toBe("linked");
});

describe(".env.example", () => {
  const example = readFileSync(path.join(REPO_ROOT, ".env.example"), "utf8");

  it("names every variable `arena --help` lists, each with a comment above it", () => {
    const named = ENVIRONMENT.flatMap(([names]) => names.split(", "));
    for (const name of named) {
      const at = example.split("\n").findIndex((l) => new RegExp(`^(# )?${name}=`).test(l));
      expect(at, `${name} is not in .env.example`).toBeGreaterThan(0);
      // A block of KEY=value lines shares the comment above it.
      let above = at - 1;
      while (above > 0 && /^[A-Z_]+=/.test(example.split("\n")[above]!)) above--;
      expect(example.split("\n")[above], `${name} has no comment above it`).toMatch(/^# \S/);
    }
  });

  it("is a valid .env whose values are the defaults: copied unchanged, it changes no run", () => {
    const values = parseDotenv(example, ".env.example");
    expect(Object.keys(values).length).toBeGreaterThan(5);
    const config = loadArenaConfig(values);
    expect({ ...config, apiKey: DEFAULTS.apiKey }).toEqual(DEFAULTS);
    // Its key is the placeholder a live run refuses, so a copy can never spend money by accident.
    expect(() => loadArenaConfig(values, { mode: "live" })).toThrowError(LiveRefusedError);
    expect(emptyValueNotes(values)).toEqual([]);
  });
});
