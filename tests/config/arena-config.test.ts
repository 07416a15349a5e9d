/**
 * loadArenaConfig (harness.md §1): an unset or empty value is the default; any other value is
 * used only if it is valid, else the run is refused with a ConfigError naming the variable —
 * `ARENA_TEMPERATURE=0.7x` used to become temperature 0 and `ARENA_REQUEST_TIMEOUT_S=0` a stall.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  ConfigError,
  DEFAULTS,
  LiveRefusedError,
  MAX_REQUEST_TIMEOUT_S,
  loadArenaConfig,
  readEnvironment,
} from "../../orchestrator/config/arena-config.ts";
import { DotenvError } from "../../orchestrator/config/dotenv.ts";

const KEY = "sk-test-0123456789abcdefghij";
const live = (env: Record<string, string>) => loadArenaConfig({ OPENAI_API_KEY: KEY, ...env }, { mode: "live" });

function refusal(env: Record<string, string | undefined>, overrides = {}): ConfigError {
  try {
    loadArenaConfig(env, overrides);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe("loadArenaConfig", () => {
  it("gives the spec's defaults for an empty environment", () => {
    expect(loadArenaConfig({})).toEqual(DEFAULTS);
  });

  it("treats empty and blank values as unset", () => {
    const blank = Object.fromEntries(
      ["ARENA_LLM_MODE", "ARENA_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "ARENA_TEMPERATURE", "ARENA_REQUEST_TIMEOUT_S", "ARENA_PRICE_INPUT_PER_M", "ARENA_PRICE_OUTPUT_PER_M"].map(
        (k, i) => [k, i % 2 ? "   " : ""],
      ),
    );
    expect(loadArenaConfig(blank)).toEqual(DEFAULTS);
  });

  it("reads every valid value, trimmed, with the base URL's trailing slashes stripped", () => {
    const config = live({
      ARENA_MODEL: " gpt-4o ",
      OPENAI_BASE_URL: "http://127.0.0.1:8080/v1//",
      ARENA_TEMPERATURE: "0.7",
      ARENA_REQUEST_TIMEOUT_S: "2.5",
      ARENA_PRICE_INPUT_PER_M: "0",
      ARENA_PRICE_OUTPUT_PER_M: "12.50",
    });
    expect(config).toMatchObject({
      mode: "live",
      model: "gpt-4o",
      baseUrl: "http://127.0.0.1:8080/v1",
      apiKey: KEY,
      temperature: 0.7,
      requestTimeoutS: 2.5,
      priceInputPerM: 0,
      priceOutputPerM: 12.5,
    });
  });

  it("reads the mode from ARENA_LLM_MODE, case-insensitively, and lets --mode win", () => {
    expect(loadArenaConfig({ ARENA_LLM_MODE: "MOCK" }).mode).toBe("mock");
    expect(loadArenaConfig({ ARENA_LLM_MODE: " Live ", OPENAI_API_KEY: KEY }).mode).toBe("live");
    expect(loadArenaConfig({ ARENA_LLM_MODE: "live", OPENAI_API_KEY: KEY }, { mode: "mock" }).mode).toBe("mock");
  });

  it("reads the circuit breaker's threshold, 0 (off) included; unset or empty leaves the breaker's default", () => {
    expect(loadArenaConfig({ ARENA_MAX_PROVIDER_FAULTS: "4" }).maxProviderFaults).toBe(4);
    expect(loadArenaConfig({ ARENA_MAX_PROVIDER_FAULTS: "0" }).maxProviderFaults).toBe(0);
    expect(loadArenaConfig({ ARENA_MAX_PROVIDER_FAULTS: " " }).maxProviderFaults).toBe(DEFAULTS.maxProviderFaults);
    expect(loadArenaConfig({}).maxProviderFaults).toBe(10);
  });

  it("forces mock-key in mock mode without looking at the key", () => {
    expect(loadArenaConfig({ OPENAI_API_KEY: "has a space" }).apiKey).toBe("mock-key");
  });

  it.each([
    [{ ARENA_TEMPERATURE: "0.7x" }, "ARENA_TEMPERATURE: '0.7x' is not a number"],
    [{ ARENA_TEMPERATURE: "1e0" }, "ARENA_TEMPERATURE: '1e0' is not a number"],
    [{ ARENA_TEMPERATURE: "NaN" }, "ARENA_TEMPERATURE: 'NaN' is not a number"],
    [{ ARENA_TEMPERATURE: "2.5" }, "ARENA_TEMPERATURE: '2.5' must be between 0 and 2"],
    [{ ARENA_TEMPERATURE: "-0.1" }, "ARENA_TEMPERATURE: '-0.1' must be between 0 and 2"],
    [{ ARENA_REQUEST_TIMEOUT_S: "0" }, "ARENA_REQUEST_TIMEOUT_S: '0' must be greater than 0 and at most 86400"],
    [{ ARENA_REQUEST_TIMEOUT_S: "0x3c" }, "ARENA_REQUEST_TIMEOUT_S: '0x3c' is not a number"],
    [{ ARENA_REQUEST_TIMEOUT_S: "Infinity" }, "ARENA_REQUEST_TIMEOUT_S: 'Infinity' is not a number"],
    [{ ARENA_REQUEST_TIMEOUT_S: String(MAX_REQUEST_TIMEOUT_S + 1) }, "ARENA_REQUEST_TIMEOUT_S: '86401' must be greater than 0 and at most 86400"],
    [{ ARENA_PRICE_INPUT_PER_M: "-1" }, "ARENA_PRICE_INPUT_PER_M: '-1' must be at least 0"],
    [{ ARENA_PRICE_OUTPUT_PER_M: "$1.60" }, "ARENA_PRICE_OUTPUT_PER_M: '$1.60' is not a number"],
    [{ ARENA_LLM_MODE: "lvie" }, "ARENA_LLM_MODE: 'lvie' is not mock or live"],
    [{ OPENAI_BASE_URL: "api.openai.com/v1" }, "OPENAI_BASE_URL: 'api.openai.com/v1' is not a URL (expected e.g. https://api.openai.com/v1)"],
    [{ OPENAI_BASE_URL: "ftp://example.com/v1" }, "OPENAI_BASE_URL: 'ftp://example.com/v1' must be an http:// or https:// URL"],
    [{ OPENAI_BASE_URL: "http://h/v1?x=1" }, "OPENAI_BASE_URL: 'http://h/v1?x=1' must not have a query or fragment"],
    [{ OPENAI_BASE_URL: "http://h/v1?" }, "OPENAI_BASE_URL: 'http://h/v1?' must not have a query or fragment"],
    [{ OPENAI_BASE_URL: "https://h/v1#x" }, "OPENAI_BASE_URL: 'https://h/v1#x' must not have a query or fragment"],
    [{ ARENA_MODEL: "gpt\n4" }, "ARENA_MODEL: contains a control character (a newline or tab?)"],
    [{ ARENA_MAX_PROVIDER_FAULTS: "2.5" }, "ARENA_MAX_PROVIDER_FAULTS: '2.5' is not a whole number"],
    [{ ARENA_MAX_PROVIDER_FAULTS: "-1" }, "ARENA_MAX_PROVIDER_FAULTS: '-1' must be between 0 and 100000"],
    [{ ARENA_MAX_PROVIDER_FAULTS: "100001" }, "ARENA_MAX_PROVIDER_FAULTS: '100001' must be between 0 and 100000"],
  ])("refuses %j", (env, message) => {
    const err = refusal(env);
    expect(err.message).toBe(message);
    expect(err.variable).toBe(Object.keys(env)[0]);
  });

  it("refuses a bad mode even when --mode would win (the environment is wrong either way)", () => {
    expect(refusal({ ARENA_LLM_MODE: "both" }, { mode: "mock" }).variable).toBe("ARENA_LLM_MODE");
  });

  it("refuses a base URL with credentials without echoing them", () => {
    const err = refusal({ OPENAI_BASE_URL: "https://user:hunter2@proxy.example/v1" });
    expect(err.variable).toBe("OPENAI_BASE_URL");
    expect(err.message).not.toContain("hunter2");
  });

  it("refuses an unusable live key without ever showing it", () => {
    const key = "sk-abc def0123456789abcdef";
    const err = refusal({ OPENAI_API_KEY: key, ARENA_LLM_MODE: "live" });
    expect(err.variable).toBe("OPENAI_API_KEY");
    expect(err.message).toBe("OPENAI_API_KEY: contains whitespace or a control character (value not shown)");
  });

  it("redacts a key pasted into the wrong variable", () => {
    const err = refusal({ OPENAI_BASE_URL: KEY, OPENAI_API_KEY: KEY });
    expect(err.message).not.toContain(KEY);
  });

  it("refuses a repeat override that is not a whole number ≥ 1", () => {
    expect(refusal({}, { repeat: 0 }).variable).toBe("--repeat");
    expect(refusal({}, { repeat: 1.5 }).variable).toBe("--repeat");
    expect(loadArenaConfig({}, { repeat: 4 }).repeat).toBe(4);
  });

  it.each(["", "mock-key", "sk-replace-me"])("still refuses a live run with the placeholder key %j, with the spec's message", (key) => {
    expect(() => loadArenaConfig({ OPENAI_API_KEY: key }, { mode: "live" })).toThrowError(LiveRefusedError);
    expect(() => loadArenaConfig({ OPENAI_API_KEY: key }, { mode: "live" })).toThrowError(
      /^refusing live run: set OPENAI_API_KEY \(and OPENAI_BASE_URL \/ ARENA_MODEL\)$/,
    );
  });
});

describe("readEnvironment", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("puts exported variables over .env, whose values are then checked like any other", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "arena-config-"));
    writeFileSync(path.join(dir, ".env"), "ARENA_TEMPERATURE=0.3x\nARENA_MODEL=from-file\n");
    const env = readEnvironment({ ARENA_MODEL: "exported" }, dir);
    expect(env.ARENA_MODEL).toBe("exported");
    expect(refusal(env).message).toBe("ARENA_TEMPERATURE: '0.3x' is not a number");
  });

  it("reports a broken .env as a ConfigError too (a DotenvError), naming the key and not the value", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "arena-config-"));
    writeFileSync(path.join(dir, ".env"), `OPENAI_API_KEY="${KEY}\n`);
    let caught: unknown;
    try {
      readEnvironment({}, dir);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DotenvError);
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe("OPENAI_API_KEY");
    expect((caught as Error).message).toMatch(/\.env:1: OPENAI_API_KEY: quoted value is not closed/);
    expect((caught as Error).message).not.toContain(KEY);
  });
});
