/** Safe paths, atomic writes, redaction and output errors: the ground every written file stands on. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../orchestrator/files/atomic.ts";
import { asOutputError, OutputError, probeWritable } from "../../orchestrator/files/fs-error.ts";
import { REDACTED, redactSecrets, registerSecrets } from "../../orchestrator/files/redact.ts";
import { inside, isSafeId, UnsafePathError } from "../../orchestrator/files/safe-path.ts";

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "arena-files-"));

describe("inside()", () => {
  it("joins safe segments under the root", () => {
    expect(inside("/r", "a", "b.json")).toBe("/r/a/b.json");
  });
  it.each(["..", ".", "../../../../tmp/x", "a/b", "/etc", "", "-x", ".hidden", "a\u0000b", "x".repeat(129)])(
    "refuses %j",
    (segment) => {
      expect(() => inside("/r", segment)).toThrow(UnsafePathError);
    },
  );
  it("isSafeId agrees with the arena id pattern", () => {
    expect(isSafeId("tool_use")).toBe(true);
    expect(isSafeId("res-01.v2")).toBe(true);
    expect(isSafeId("../x")).toBe(false);
  });
});

describe("writeFileAtomic", () => {
  it("replaces the file whole and leaves no temp file behind", () => {
    const dir = tmp();
    const file = path.join(dir, "scorecard.md");
    writeFileSync(file, "old\n");
    writeFileAtomic(file, "new\n");
    expect(readFileSync(file, "utf8")).toBe("new\n");
    expect(readdirSync(dir)).toEqual(["scorecard.md"]);
  });
  it("a write that fails at the rename leaves what was there, and no temp file", () => {
    // A non-empty directory where the file should go: the rename fails whoever runs the test (root too).
    const dir = tmp();
    const target = path.join(dir, "x.json");
    mkdirSync(target);
    writeFileSync(path.join(target, "keep"), "old");
    expect(() => writeFileAtomic(target, "new")).toThrow();
    expect(readFileSync(path.join(target, "keep"), "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["x.json"]);
  });
  it("redacts what it writes", () => {
    const dir = tmp();
    registerSecrets(["hunter2-secret-value"]);
    try {
      writeFileAtomic(path.join(dir, "r.json"), '{"error": "401 for key hunter2-secret-value"}');
      expect(readFileSync(path.join(dir, "r.json"), "utf8")).toBe(`{"error": "401 for key ${REDACTED}"}`);
    } finally {
      registerSecrets([]);
    }
  });
});

describe("redactSecrets", () => {
  it("removes the configured key and anything shaped like a provider key, and nothing else", () => {
    const text =
      "Incorrect API key provided: sk-proj-abcdefghijklmnopqrstuvwx. Also sk-ant-api03-0123456789abcdef, AIzaSyA1234567890abcdefghijklmnopqrstu, gsk_abcdefghijklmnopqrstuvwx and Authorization: Bearer tok.abc-123456789";
    const out = redactSecrets(text, ["my-own-key-1234"]);
    expect(out).not.toMatch(/sk-proj|sk-ant|AIzaSy|gsk_a|tok\.abc/);
    expect(out).toContain("Bearer [REDACTED]");
    expect(redactSecrets("the task is done; ask-me later", [])).toBe("the task is done; ask-me later");
    expect(redactSecrets("x my-own-key-1234 y", ["my-own-key-1234"])).toBe(`x ${REDACTED} y`);
  });
  it("never treats the mock placeholder as a secret", () => {
    registerSecrets(["mock-key"]);
    expect(redactSecrets("api_key mock-key")).toBe("api_key mock-key");
    registerSecrets([]);
  });
});

describe("output errors", () => {
  it("an unwritable root is one line naming the path and the cause", () => {
    const dir = tmp();
    const file = path.join(dir, "not-a-dir");
    writeFileSync(file, "");
    let caught: unknown;
    try {
      probeWritable(path.join(file, "runs"));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(OutputError);
    expect((caught as OutputError).message).toMatch(/^cannot write .*not-a-dir.*: (ENOTDIR|EEXIST) \(/);
  });
  it("maps fs error codes, and only those", () => {
    const enospc = Object.assign(new Error("no space"), { code: "ENOSPC", path: "/r/runs/x.json" });
    expect(asOutputError(enospc)?.message).toBe("cannot write /r/runs/x.json: ENOSPC (no space left on device)");
    expect(asOutputError(new TypeError("bug"))).toBeUndefined();
  });
});
