/**
 * The arena data model (arena-format.md §2–§4), as zod schemas; the TypeScript types are
 * inferred from them. Values that the Python implementation bills or grades by their exact
 * JSON form (check fields, scripted tool arguments) stay {@link PyValue}s so `3` and `3.0`
 * remain different.
 */
import { z } from "zod";
import type { PyDict, PyValue } from "@agentic-arena/py-semantics";

const pyValue = z.custom<PyValue>(() => true);
const pyDict = z.custom<PyDict>((v) => v instanceof Map, { message: "must be an object" });

/** `arena.toml`. Unknown keys are ignored. */
export const ArenaTomlSchema = z.object({
  id: z.string(),
  description: z.string().default(""),
  tools: z.array(z.string()).default([]),
  system_prompt_intent: z.string().default(""),
  durable: z.boolean().default(false),
});
export type ArenaToml = z.infer<typeof ArenaTomlSchema>;

/** One graded item of `dataset.jsonl`. `checks` are kept as parsed (the record stores them verbatim). */
export const ItemSchema = z.object({
  id: z.string().min(1),
  input: z.string(),
  checks: z.array(pyDict).min(1),
  note: z.string().default(""),
  resume_with: z.string().default(""),
  /** 1-based physical line in dataset.jsonl. */
  line: z.number().int().positive(),
});
export type Item = z.infer<typeof ItemSchema>;
export type Check = PyDict;

export const ToolCallTurnSchema = z.object({
  name: z.string(),
  /** A string is sent verbatim; anything else is `json.dumps`-ed by the gateway. */
  arguments: pyValue,
  id: z.string().optional(),
});
export type ScriptedToolCall = z.infer<typeof ToolCallTurnSchema>;

export const TurnSchema = z.union([
  z.object({ kind: z.literal("tool_calls"), tool_calls: z.array(ToolCallTurnSchema) }),
  z.object({ kind: z.literal("content"), content: z.string() }),
]);
export type Turn = z.infer<typeof TurnSchema>;

export const ScenarioSchema = z.object({
  match: z.string(),
  deliberate_fault: z.string().default(""),
  turns: z.array(TurnSchema),
});
export type Scenario = z.infer<typeof ScenarioSchema>;

export const MockScriptSchema = z.object({
  scenarios: z.array(ScenarioSchema),
  default: z.object({ turns: z.array(TurnSchema) }),
});
export type MockScript = z.infer<typeof MockScriptSchema>;

/** A loaded arena: what the orchestrator, gateway and scorer work from. */
export interface Arena {
  readonly id: string;
  /** Absolute path of the arena folder. */
  readonly dir: string;
  readonly description: string;
  /** The tools list exactly as declared in arena.toml (may be empty = legacy "all tools"). */
  readonly declaredTools: readonly string[];
  readonly systemPromptIntent: string;
  /** `system_prompt_intent` with every Python-whitespace run collapsed to one space. */
  readonly systemPrompt: string;
  readonly durable: boolean;
  readonly items: readonly Item[];
  readonly script: MockScript;
}
