/**
 * The one number parser shared by the environment and the flags: a value is a plain decimal or
 * it is refused with a ConfigError naming where it came from — never reinterpreted.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, parseCount, parseDecimal, parsePositiveNumber } from "../../orchestrator/config/values.ts";

function refusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("parseDecimal", () => {
  it.each([
    ["0.7", 0.7],
    [" 60 ", 60],
    [".5", 0.5],
    ["2.", 2],
    ["+1.25", 1.25],
    ["0", 0],
  ])("accepts the plain decimal %j", (raw, value) => {
    expect(parseDecimal(raw, "ARENA_X")).toBe(value);
  });

  it.each(["1e3", "0x2", "0.7x", "Infinity", "-Infinity", "NaN", "1_000", "1,5", "0b1", "1 2", "--1", "."])(
    "refuses %j as not a number, naming the variable",
    (raw) => {
      const err = refusal(() => parseDecimal(raw, "ARENA_TEMPERATURE"));
      expect(err.variable).toBe("ARENA_TEMPERATURE");
      expect(err.message).toBe(`ARENA_TEMPERATURE: '${raw}' is not a number`);
    },
  );

  it("refuses a run of digits too long to be a finite number", () => {
    expect(refusal(() => parseDecimal("9".repeat(400), "ARENA_X")).problem).toMatch(/is too large$/);
  });

  it("checks the range, saying which bound", () => {
    expect(parseDecimal("2", "T", { min: 0, max: 2 })).toBe(2);
    expect(refusal(() => parseDecimal("2.01", "T", { min: 0, max: 2 })).message).toBe("T: '2.01' must be between 0 and 2");
    expect(refusal(() => parseDecimal("-0.1", "P", { min: 0 })).message).toBe("P: '-0.1' must be at least 0");
    expect(refusal(() => parseDecimal("5", "P", { max: 4 })).message).toBe("P: '5' must be at most 4");
  });

  it("quotes a refused value without control characters and redacts anything key-shaped", () => {
    const key = `sk-${"a".repeat(30)}`;
    const err = refusal(() => parseDecimal(`${key}x`, "ARENA_PRICE_INPUT_PER_M"));
    expect(err.message).not.toContain(key);
    expect(err.message).toContain("[REDACTED]");
    expect(refusal(() => parseDecimal("1\u00072", "X")).message).toBe("X: '1?2' is not a number");
  });
});

describe("parsePositiveNumber", () => {
  it("refuses 0 and negatives, accepts anything above", () => {
    expect(parsePositiveNumber("0.001", "--timeout")).toBe(0.001);
    expect(refusal(() => parsePositiveNumber("0", "--timeout")).message).toBe("--timeout: '0' must be greater than 0");
    expect(refusal(() => parsePositiveNumber("-3", "--timeout")).problem).toBe("'-3' must be greater than 0");
  });
});

describe("parseCount", () => {
  it("accepts whole numbers at or above the minimum (default 1)", () => {
    expect(parseCount("3", "--repeat")).toBe(3);
    expect(parseCount(" 12 ", "--concurrency")).toBe(12);
    expect(parseCount("0", "--port", { min: 0, max: 65535 })).toBe(0);
  });

  it.each(["1e3", "1.0", "1.5", "0x10", "", " ", "three", "Infinity"])("refuses %j, naming the flag", (raw) => {
    const err = refusal(() => parseCount(raw, "--concurrency"));
    expect(err.variable).toBe("--concurrency");
    expect(err.message).toBe(raw.trim() === "" ? "--concurrency: is empty" : `--concurrency: '${raw}' is not a whole number`);
  });

  it("checks the bounds and refuses what is beyond exact integers", () => {
    expect(refusal(() => parseCount("0", "--repeat")).message).toBe("--repeat: '0' must be at least 1");
    expect(refusal(() => parseCount("-2", "--repeat")).message).toBe("--repeat: '-2' must be at least 1");
    expect(refusal(() => parseCount("70000", "--port", { min: 0, max: 65535 })).message).toBe("--port: '70000' must be between 0 and 65535");
    expect(refusal(() => parseCount("99999999999999999999", "--repeat")).message).toBe("--repeat: '99999999999999999999' is too large");
  });
});
