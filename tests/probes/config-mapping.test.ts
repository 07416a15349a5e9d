/**
 * The config-field mapping guard (harness.md §1): every `ArenaConfig` field, every field of the
 * config an adapter receives, and every arena-spec field is mapped to the probe that proves it
 * reaches adapters, or declared harness-only with a reason. A new field without a mapping fails
 * here — that is how a control stays wired (the original found an unwired iteration budget, an
 * unwired timeout and hard-coded temperatures, each invisible until a probe was written).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ArenaTomlSchema } from "../../orchestrator/arena/schemas.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { AdapterConfigSchema, ArenaSpecSchema, WorkItemSchema } from "../../contract/protocol.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { interfaceFields, mappingViolations, type Mapping } from "./checks/mapping.ts";

const probe = (file: string, evidence: string): Mapping => ({ probe: `tests/probes/${file}`, evidence });
/** A probe of the registry (orchestrator/probes/): the file that defines it. */
const registered = (file: string, evidence: string): Mapping => ({ probe: `orchestrator/probes/${file}`, evidence });
const harnessOnly = (why: string): Mapping => ({ harnessOnly: why });

// The proofs, by field meaning (shared by the run config and the adapter config).
const MODEL = registered("wire-probes.ts", "canaryOf");
const TEMPERATURE = registered("wire-probes.ts", "temperature");
const BASE_URL = registered("accounting-probes.ts", "base_url");
const TIMEOUT = registered("transport-setups.ts", "requestTimeoutS");
const ITERATIONS = registered("contract-probes.ts", "max_tool_iterations");
const CHECKPOINT_DIR = registered("writes-probes.ts", "checkpoint_dir");
const API_KEY = harnessOnly("forced to mock-key in mock mode and never recorded; live, a wrong key fails loudly");

/** `ArenaConfig` (orchestrator/config/arena-config.ts). */
const ARENA_CONFIG: Readonly<Record<string, Mapping>> = {
  mode: harnessOnly("selects mock or live for the whole run; adapters never see it"),
  model: MODEL,
  baseUrl: BASE_URL,
  apiKey: API_KEY,
  priceInputPerM: harnessOnly("the cost column only"),
  priceOutputPerM: harnessOnly("the cost column only"),
  repeat: harnessOnly("how many times the harness runs each item"),
  maxProviderFaults: harnessOnly("when the harness stops dispatching items (run/breaker.ts); adapters never see it"),
  requestTimeoutS: TIMEOUT,
  maxToolIterations: ITERATIONS,
  temperature: TEMPERATURE,
};

/** `AdapterConfig` (contract/protocol.ts): what each adapter's build receives. */
const ADAPTER_CONFIG: Readonly<Record<string, Mapping>> = {
  model: MODEL,
  baseUrl: BASE_URL,
  apiKey: API_KEY,
  temperature: TEMPERATURE,
  requestTimeoutS: TIMEOUT,
  maxToolIterations: ITERATIONS,
};

/** `WorkItem` (contract/protocol.ts): what each leg of an item receives. */
const WORK_ITEM: Readonly<Record<string, Mapping>> = {
  id: harnessOnly("names the item in records and thread ids; an adapter cannot honour or ignore it"),
  input: registered("contract-probes.ts", "item input"),
  resume_with: registered("judges/pause.ts", "resume_with"),
  checkpointDir: CHECKPOINT_DIR,
};

const ID = harnessOnly("names the arena in records; not a control an adapter could honour or ignore");
const DESCRIPTION = harnessOnly("documentation; never sent to adapters");
const PROMPT = registered("contract-probes.ts", "SENTINEL_SENTENCE");
const TOOLS = registered("contract-probes.ts", "declaredToolsViolations");
const DURABLE = registered("durable-probes.ts", "durable_state");

/** `arena.toml` fields (ArenaTomlSchema). */
const ARENA_TOML: Readonly<Record<string, Mapping>> = {
  id: ID,
  description: DESCRIPTION,
  tools: TOOLS,
  system_prompt_intent: PROMPT,
  durable: DURABLE,
};

/** The loaded `Arena` (orchestrator/arena/schemas.ts). */
const ARENA: Readonly<Record<string, Mapping>> = {
  id: ID,
  dir: harnessOnly("where the harness read the files from"),
  description: DESCRIPTION,
  declaredTools: TOOLS,
  systemPromptIntent: PROMPT,
  systemPrompt: PROMPT,
  durable: DURABLE,
  items: harnessOnly("the dataset: graded by the scorer, never shown to adapters"),
  script: harnessOnly("the mock script: replayed by the gateway, never shown to adapters"),
};

/** `ArenaSpec` (contract/protocol.ts): the arena as an adapter sees it. */
const ARENA_SPEC: Readonly<Record<string, Mapping>> = {
  id: ID,
  tools: TOOLS,
  systemPrompt: PROMPT,
  durable: DURABLE,
};

const src = (rel: string) => path.join(REPO_ROOT, rel);

describe("harness.md §1: every config and arena-spec field is mapped to a probe or declared harness-only", () => {
  it("ArenaConfig (the interface and its defaults)", () => {
    const fields = interfaceFields(src("orchestrator/config/arena-config.ts"), "ArenaConfig");
    expect(Object.keys(DEFAULTS).sort()).toEqual([...fields].sort());
    expect(mappingViolations("ArenaConfig", fields, ARENA_CONFIG, REPO_ROOT)).toEqual([]);
  });

  it("AdapterConfig (what every adapter is built with)", () => {
    expect(mappingViolations("AdapterConfig", Object.keys(AdapterConfigSchema.shape), ADAPTER_CONFIG, REPO_ROOT)).toEqual([]);
  });

  it("WorkItem (what every leg of an item is given)", () => {
    expect(mappingViolations("WorkItem", Object.keys(WorkItemSchema.shape), WORK_ITEM, REPO_ROOT)).toEqual([]);
  });

  it("arena.toml, the loaded Arena, and the ArenaSpec adapters see", () => {
    expect(mappingViolations("arena.toml", Object.keys(ArenaTomlSchema.shape), ARENA_TOML, REPO_ROOT)).toEqual([]);
    expect(mappingViolations("Arena", interfaceFields(src("orchestrator/arena/schemas.ts"), "Arena"), ARENA, REPO_ROOT)).toEqual([]);
    expect(mappingViolations("ArenaSpec", Object.keys(ArenaSpecSchema.shape), ARENA_SPEC, REPO_ROOT)).toEqual([]);
  });

  it("the guard fails on a new unmapped field, a stale mapping, and a probe that never mentions its field", () => {
    const v = mappingViolations("ArenaConfig", ["model", "newKnob"], { model: MODEL, gone: harnessOnly("x") }, REPO_ROOT);
    expect(v).toEqual([
      "ArenaConfig.newKnob: not mapped to a probe nor declared harness-only",
      "ArenaConfig.gone: mapped, but no such field (stale mapping)",
    ]);
    expect(mappingViolations("X", ["a"], { a: probe("transport.test.ts", "no such text anywhere 7f3a") }, REPO_ROOT)).toEqual([
      'X.a: probe tests/probes/transport.test.ts never mentions "no such text anywhere 7f3a"',
    ]);
  });
});
