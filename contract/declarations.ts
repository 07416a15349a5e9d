/**
 * What an adapter declares about its wire, so the witness can hold it to the exact form instead
 * of a loose one: where its answer comes from, the system prompt it builds around the arena's,
 * the decorations its framework adds to the canonical tools, the messages its framework adds,
 * the texts it answers exempt tools with, and how its history grows. Anything undeclared is held
 * to the baseline's form; everything declared is published (`arena adapters`, the report).
 *
 * The declarations are data in the adapter's folder (`declarations.json`, keyed by adapter name),
 * read by the orchestrator without loading the adapter — the same file for a TypeScript or a
 * Python adapter. Each entry carries `why`: a declaration is a finding, stated once.
 */
import { z } from "zod";
import { PIPELINE_ROLES } from "./texts.ts";

const why = z.string().trim().min(8, "say why in a sentence");

/**
 * Named decorations a framework adds to a canonical tool spec. Each is one exact edit the witness
 * applies to the canonical spec before comparing it with the wire (a closed set: a new framework
 * habit is a new name here, reviewed, not a free-form pattern).
 */
export const TOOL_TRANSFORMS = {
  /** `parameters.$schema` = draft-07's URI (zod-to-JSON-Schema converters add it). */
  "json-schema-draft-07": "adds \"$schema\": \"http://json-schema.org/draft-07/schema#\" to each tool's parameters",
  /** `parameters.additionalProperties` = false. */
  "closed-objects": "adds \"additionalProperties\": false to each tool's parameters",
  /** `function.strict` = false. */
  "strict-false": "adds \"strict\": false to each tool's function",
  /**
   * `nullable: true` on each optional parameter (one not in `required`): smolagents computes
   * `required` from its inputs as every input not marked nullable, so an optional parameter can only
   * reach the wire with the mark.
   */
  "nullable-optionals": "adds \"nullable\": true to each parameter the tool does not require",
} as const;
export type ToolTransform = keyof typeof TOOL_TRANSFORMS;

/**
 * Framework messages: a message the framework adds beyond the item's input and the transcript.
 * Each form says what the text must be built from, so the witness can check its content too.
 */
export const MESSAGE_FORMS = {
  /** A sub-agent's conversation starts with the argument it was called with, as a user message. */
  "delegate-task": "a user message whose text is an argument of a served call to a declared delegate",
  /**
   * ADK hands one agent's turns to the next as user messages: `For context:` followed by
   * `[agent] said: <served content>`, `[agent] called tool \`name\` with parameters: <served args>`
   * or `[agent] \`name\` tool returned result: <the tool's result as JSON>`.
   */
  "adk-for-context": "a user message of ADK's \"For context:\" form, each part built from a served reply or a canonical tool output",
} as const;
export type MessageForm = keyof typeof MESSAGE_FORMS;

export const WireDeclarationSchema = z.strictObject({
  /**
   * Where the scored answer is read on the served wire: `content` (default) is the last non-empty
   * assistant content served on the item's last leg; a control tool names the tool whose served
   * argument is the answer (`final_answer`'s `answer`).
   */
  answer: z
    .union([z.literal("content"), z.strictObject({ tool: z.string().min(1), argument: z.string().min(1), why })])
    .default("content"),
  /**
   * How the adapter's own report may differ from the served result without a violation: `trim`
   * (its answer's surrounding whitespace), `json` (its answer, the same JSON value re-serialised),
   * `refused-calls-unreported` (its tool calls lack the served calls its framework refused before
   * any tool ran: arguments that are not a JSON object, or a tool the arena does not declare).
   * The record is scored on the served result either way.
   */
  normalise: z.array(z.strictObject({ form: z.enum(["trim", "json", "refused-calls-unreported"]), why })).default([]),
  /**
   * The system prompts the adapter sends, as templates: `{prompt}` is the arena's prompt and
   * `{role:<name>}` a pipeline role text (contract/texts.ts). Default: exactly the arena prompt.
   */
  system_prompts: z
    .array(z.strictObject({ template: z.string().includes("{prompt}", { message: "a template keeps the arena prompt: {prompt}" }), why }))
    .default([]),
  tool_transforms: z.array(z.strictObject({ transform: z.enum(Object.keys(TOOL_TRANSFORMS) as [ToolTransform, ...ToolTransform[]]), why })).default([]),
  framework_messages: z.array(z.strictObject({ form: z.enum(Object.keys(MESSAGE_FORMS) as [MessageForm, ...MessageForm[]]), why })).default([]),
  /**
   * The result text an exempt tool (a handoff, a delegate) is answered with. `{agent}` is the
   * part of a handoff's name after `transfer_to_`; `delegate-reply` is the sub-agent's last
   * served content.
   */
  exempt_results: z
    .array(z.strictObject({ tool: z.string().min(1), text: z.string().min(1), why }))
    .default([]),
  /**
   * How the framework's replay of its own history departs from the served replies, from a closed
   * set: `non-object-arguments-as-empty-object` (a served call whose arguments are not a JSON
   * object — not JSON, or `null` — is replayed with `{}`: the framework could not use what the
   * model sent and keeps its own form).
   */
  history: z.array(z.strictObject({ form: z.enum(["non-object-arguments-as-empty-object"]), why })).default([]),
  /**
   * Several conversations in one item (pipeline stages, sub-agents): each is append-only on its
   * own; a new conversation may start only where the adapter declares stages.
   */
  stages: z.strictObject({ conversations: z.enum(["one", "per-stage"]), why }).optional(),
});
export type WireDeclaration = z.infer<typeof WireDeclarationSchema>;

/** An adapter without a declaration is held to the baseline's wire. */
export const BASELINE_DECLARATION: WireDeclaration = WireDeclarationSchema.parse({});

/** The text a `delegate-reply` exempt result stands for (the sub-agent's own last answer). */
export const DELEGATE_REPLY = "delegate-reply";

/** The system prompts a declaration allows on an arena, the templates filled in. */
export function allowedSystemPrompts(declaration: WireDeclaration, arenaPrompt: string): string[] {
  const templates = declaration.system_prompts.length > 0 ? declaration.system_prompts.map((s) => s.template) : ["{prompt}"];
  return templates.map((t) =>
    t.replace(/\{role:([a-z_]+)\}/g, (whole, role: string) => (role in PIPELINE_ROLES ? PIPELINE_ROLES[role as keyof typeof PIPELINE_ROLES] : whole)).replaceAll("{prompt}", () => arenaPrompt),
  );
}

export interface DeclaredLine {
  /** The declaration's field (`tool_transforms`, `system_prompts`, …). */
  readonly kind: string;
  readonly what: string;
  readonly why: string;
}

/** A declaration as lines to publish (`arena adapters`, the report): one per declared departure. */
export function declaredLines(declaration: WireDeclaration): DeclaredLine[] {
  const d = declaration;
  return [
    ...(d.answer === "content" ? [] : [{ kind: "answer", what: `the ${d.answer.argument} argument of ${d.answer.tool}`, why: d.answer.why }]),
    ...d.normalise.map((n) => ({ kind: "normalise", what: n.form, why: n.why })),
    ...d.system_prompts.map((s) => ({ kind: "system_prompts", what: JSON.stringify(s.template.length > 90 ? `${s.template.slice(0, 90)}…` : s.template), why: s.why })),
    ...d.tool_transforms.map((t) => ({ kind: "tool_transforms", what: t.transform, why: t.why })),
    ...d.framework_messages.map((f) => ({ kind: "framework_messages", what: f.form, why: f.why })),
    ...d.exempt_results.map((e) => ({ kind: "exempt_results", what: `${e.tool} → ${e.text}`, why: e.why })),
    ...d.history.map((h) => ({ kind: "history", what: h.form, why: h.why })),
    ...(d.stages ? [{ kind: "stages", what: d.stages.conversations, why: d.stages.why }] : []),
  ];
}
