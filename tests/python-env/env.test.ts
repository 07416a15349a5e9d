/**
 * The decisions of `pnpm setup:python` (scripts/python-env/), and the lock's agreement with its
 * inputs: every top-level pin is in the lock at that version, and every locked distribution
 * carries hashes, so `--require-hashes` can install nothing else.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decide, INSTALLER_LOCK, INSTALLER_REQUIREMENTS, installerOf, LOCK, REQUIREMENTS, type BasePython } from "../../scripts/python-env/env.ts";

const py = (version: [number, number, number]): BasePython => ({ executable: "/usr/bin/python3", version });

describe("setup:python decides", () => {
  it("says in one line, with the command, when Python is missing or too old", () => {
    expect(decide(null, null, "d", "python3")).toEqual({
      kind: "no-python",
      line: "python adapters: not installed (no python3 found; they need Python ≥ 3.11): install it, then run `pnpm setup:python`",
    });
    expect(decide(py([3, 10, 12]), null, "d", "python3")).toMatchObject({ kind: "no-python", line: expect.stringContaining("python3 is 3.10.12") });
    expect(decide(py([2, 7, 18]), null, "d", "python")).toMatchObject({ kind: "no-python" });
  });

  it("rebuilds when there is no stamp, the lock changed or the interpreter did; otherwise leaves .venv alone", () => {
    const stamp = { lock_sha256: "d", python: "3.11.7", installer: "uv" as const };
    expect(decide(py([3, 11, 7]), null, "d", "python3")).toEqual({ kind: "build", reason: "no environment yet" });
    expect(decide(py([3, 11, 7]), stamp, "e", "python3")).toEqual({ kind: "build", reason: "the lock changed" });
    expect(decide(py([3, 12, 1]), stamp, "d", "python3")).toEqual({ kind: "build", reason: "Python changed (3.11.7 → 3.12.1)" });
    expect(decide(py([3, 11, 7]), stamp, "d", "python3")).toMatchObject({ kind: "up-to-date" });
  });

  it("takes uv by default, pip when asked, and refuses anything else by name", () => {
    expect(installerOf({})).toBe("uv");
    expect(installerOf({ ARENA_PY_INSTALLER: "pip" })).toBe("pip");
    expect(installerOf({ ARENA_PY_INSTALLER: "conda" })).toEqual({ error: 'ARENA_PY_INSTALLER: expected "uv" or "pip", got "conda"' });
  });
});

/** `name==version` per requirement line, names normalised as PyPI does (case, `_`/`.` → `-`), extras dropped. */
function pins(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)/gm)) out.set(m[1]!.toLowerCase().replace(/[._]/g, "-"), m[2]!);
  return out;
}

describe("the hashed locks", () => {
  for (const [input, lock] of [[REQUIREMENTS, LOCK], [INSTALLER_REQUIREMENTS, INSTALLER_LOCK]] as const) {
    it(`${lock.split("/").slice(-1)[0]} holds every pin of its input at that version, each with hashes`, () => {
      const wanted = pins(readFileSync(input, "utf8"));
      const text = readFileSync(lock, "utf8");
      const locked = pins(text);
      expect(wanted.size).toBeGreaterThan(0);
      for (const [name, version] of wanted) expect(locked.get(name), name).toBe(version);
      // Each requirement block is `name==v \` then only `--hash=sha256:` lines.
      const blocks = text.split(/\n(?=[A-Za-z0-9])/).filter((b) => /^[A-Za-z0-9]/.test(b));
      expect(blocks.length).toBe(locked.size);
      for (const b of blocks) expect(b, b.split("\n")[0]).toMatch(/--hash=sha256:[0-9a-f]{64}/);
    });
  }
});
