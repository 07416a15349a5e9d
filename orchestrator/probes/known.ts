/**
 * Known findings: where a real framework fails a probe, the failure is kept and asserted exactly,
 * never hidden by loosening the probe. Each entry names the violation it expects (a pattern) and
 * why; the suite then requires that violation to be present (so a fixed framework retires the
 * entry instead of leaving a stale excuse) and no other violation to appear.
 */
export interface KnownFinding {
  /** Matches one violation string. */
  readonly violation: RegExp;
  /** Why the framework behaves this way (what a reader of the findings needs). */
  readonly why: string;
}

/** adapter → probe case → the violations it is known to produce. */
export type KnownFindings = Readonly<Record<string, Readonly<Record<string, readonly KnownFinding[]>>>>;

export interface Judgement {
  /** Violations no known finding accounts for. */
  readonly unexpected: string[];
  /** Known findings that did not occur (stale: the framework changed, retire the entry). */
  readonly stale: string[];
}

/** Compare a probe's violations with the known findings for one adapter and case. */
export function judge(violations: readonly string[], known: readonly KnownFinding[] = []): Judgement {
  return {
    unexpected: violations.filter((v) => !known.some((k) => k.violation.test(v))),
    stale: known.filter((k) => !violations.some((v) => k.violation.test(v))).map((k) => `${k.violation} (${k.why})`),
  };
}

export function knownFor(findings: KnownFindings, adapter: string, probeCase: string): readonly KnownFinding[] {
  return findings[adapter]?.[probeCase] ?? [];
}

/**
 * Every probe's known findings (probe id → adapter → case → expected violations, each with why).
 */
/**
 * ADK sub-agents (google_adk-multi) are shown the other agents' turns as user text ("For context:
 * [researcher] called tool `search` with parameters: …", "[researcher] tool `search` returned
 * result: {"result": "…"}"): the writer's and editor's requests carry no assistant tool call and
 * no tool message, and the tool result only JSON-encoded (escaped newlines and quotes) inside text.
 * workers/adapters/google_adk/README.md, findings.
 */
const ADK_FOREIGN_EVENTS =
  "ADK rewrites another agent's events as 'For context: [researcher] …' user text: the last (editor) request carries the search call and its JSON-encoded result as prose, not as a tool call and a tool message";

/**
 * smolagents speaks a text protocol over native tool calls (workers/adapters/smolagents/README.md,
 * Findings): its own system-prompt template around the arena prompt, a "New task:" user message
 * instead of the input, calls replayed as "Calling tools:" assistant text and results as user
 * "Observation:" messages. No declaration form expresses these yet (arenas/expectations.toml lists
 * them per arena), so the witness cannot check that history against what was served.
 */
const SMOLAGENTS_TEXT_PROTOCOL =
  "smolagents wraps the arena prompt in its own template, opens with 'New task:', replays calls as 'Calling tools:' text and results as user 'Observation:' messages";
const SMOLAGENTS_TRANSCRIPT: readonly KnownFinding[] = [
  { violation: /^the last request has no user message equal to the item input /, why: SMOLAGENTS_TEXT_PROTOCOL },
  { violation: /^request \d+\/\d+: the first user message is "New task:\\n/, why: SMOLAGENTS_TEXT_PROTOCOL },
];
const SMOLAGENTS_SERVED: readonly KnownFinding[] = [
  { violation: /^\S+ r\d+ leg \d+ request \d+: system-prompt: a system text that wraps the arena prompt in no declared template: "You are an expert assistant who can solve any task using tool calls\./, why: SMOLAGENTS_TEXT_PROTOCOL },
  { violation: /^\S+ r\d+ leg \d+ request \d+: framework-message: a user message beyond the item's input, and the adapter declares no framework messages: "(New task:|Observation:)/, why: SMOLAGENTS_TEXT_PROTOCOL },
  { violation: /^\S+ r\d+ leg \d+ request \d+: transcript: (an assistant turn the gateway never served for this item: \{"content":\[\{"type":"text","text":"Calling tools:|the served reply does not follow the history it answered \(message \d+ is \{"calls":\[\],"role":"assistant","text":"Calling tools:)/, why: SMOLAGENTS_TEXT_PROTOCOL },
];

/**
 * ADK for Python hands the pipeline's later agents the earlier turns as one quoted user text
 * ("For context: below is a transcript of what another agent did, quoted between
 * <<<BEGIN_QUOTED_AGENT_CONTENT>>> …", arguments and results as Python reprs), a different form
 * from the TypeScript edition's that the `adk-for-context` declaration recognises
 * (workers/adapters/google_adk-py/README.md, finding 6).
 */
const ADK_PY_QUOTED_EVENTS =
  "ADK for Python shows another agent's events to the next one as a quoted 'For context:' transcript with Python reprs, no tool call and no tool message";

export const KNOWN_FINDINGS: Readonly<Record<string, KnownFindings>> = {
  prompt: {},
  "declared-tools": {},
  "iteration-cap": {},
  "tool-result": {
    "google_adk-multi": {
      "round-trip": [{ violation: /^the tool result in the last request \(\d+ chars\) does not contain dispatch's output/, why: ADK_FOREIGN_EVENTS }],
    },
    "google_adk-py-multi": {
      "round-trip": [{ violation: /^the tool result in the last request \(\d+ chars\) does not contain dispatch's output/, why: ADK_PY_QUOTED_EVENTS }],
    },
  },
  "tool-arguments": {
    "google_adk-multi": {
      "round-trip": [{ violation: /^the tool did not run on the model's arguments: the result on the wire is not dispatch/, why: ADK_FOREIGN_EVENTS }],
    },
    "google_adk-py-multi": {
      "round-trip": [{ violation: /^the tool did not run on the model's arguments: the result on the wire is not dispatch/, why: ADK_PY_QUOTED_EVENTS }],
    },
  },
  transcript: {
    "google_adk-multi": {
      "round-trip": [
        { violation: /^the last request has no assistant message carrying the search call$/, why: ADK_FOREIGN_EVENTS },
        { violation: /^the last request does not carry the tool result$/, why: ADK_FOREIGN_EVENTS },
      ],
    },
    "google_adk-py-multi": {
      "round-trip": [
        { violation: /^the last request has no assistant message carrying the search call$/, why: ADK_PY_QUOTED_EVENTS },
        { violation: /^the last request does not carry the tool result$/, why: ADK_PY_QUOTED_EVENTS },
      ],
    },
    smolagents: { "round-trip": SMOLAGENTS_TRANSCRIPT },
    "smolagents-multi": { "round-trip": SMOLAGENTS_TRANSCRIPT },
  },
  "served-wire": {
    smolagents: { tool_use: SMOLAGENTS_SERVED },
    "smolagents-multi": { multi_agent: SMOLAGENTS_SERVED },
    "google_adk-py-multi": {
      multi_agent: [
        {
          violation: /^\S+ r\d+ leg \d+ request \d+: framework-message: a user message beyond the item's input, and the adapter declares no framework messages: "For context: below is a transcript of what another agent did, quoted between <<<BEGIN_QUOTED_AGENT_CONTENT>>>/,
          why: ADK_PY_QUOTED_EVENTS,
        },
      ],
    },
  },
  "tool-schema": {},
  "shared-controls": {},
  streaming: {},
  "usage-accounting": {},
  transport: {},
  pause: {},
  durable: {},
  "checkpoint-writes": {},
  "grounding-trap": {},
};

/** The known findings of one probe for one adapter and case. */
export function knownOf(probe: string, adapter: string, probeCase: string): readonly KnownFinding[] {
  return knownFor(KNOWN_FINDINGS[probe] ?? {}, adapter, probeCase);
}
