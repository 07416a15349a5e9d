/**
 * The wire probes, probes.md §7–§9: tool-schema fidelity (with the baseline pinned to the
 * canonical spec), the shared controls (canary model and temperature, the sampling envelope) and
 * streaming only with usage. §8 judges the §7 runs and §9 every §1–§8 run: no extra runs.
 */
import { isDeepStrictEqual } from "node:util";
import { toolResultViolations } from "./judges/contract.ts";
import { controlsViolations, streamingViolations } from "./judges/controls.ts";
import { baselinePinViolations, schemaViolations } from "./judges/schema.ts";
import { markerOf } from "./contract-probes.ts";
import { roundTripTruth, schemaArena, schemaArenasFor, setupsFor } from "./setups.ts";
import { allMatch, bodiesOf, exactly, holds, matching, type HostileCase, type Probe } from "./types.ts";
import type { WireRun } from "./wire.ts";

const arenaOf = (probeCase: string) => probeCase.slice("schema:".length);
const toolsOf = (arena: string) => schemaArena(arena).tools;
const undescribed = (p: string) => `${p}: not described (no parameter description, and the tool description does not mention it)`;

export const toolSchema: Probe = {
  id: "tool-schema",
  section: "§7",
  rule: "every tool reaches the model as declared: parameters, types, descriptions, the full description",
  setup: (subject) => schemaArenasFor(subject).map((id) => ({ id: `schema:${id}`, setups: [`schema:${id}` as const] })),
  judge: ({ probeCase, runs, subject }) => {
    const tools = toolsOf(arenaOf(probeCase));
    return [...schemaViolations(runs[0]!, tools), ...(subject.baseline ? baselinePinViolations(runs[0]!, tools) : [])];
  },
  hostile: [
    { fixture: "drops-k", shows: "k is missing", scope: ["tool_use"], expect: ({ violations }) => exactly(violations, ["search.k: parameter missing from the wire schema"]) },
    {
      fixture: "bare-params",
      shows: "parameters are undescribed (k survives only because the description mentions it)",
      scope: ["tool_use"],
      expect: ({ violations }) => exactly(violations, [undescribed("search.query"), undescribed("calculator.expr")]),
    },
    { fixture: "retyped-k", shows: "k is a number, not an integer", scope: ["tool_use"], expect: ({ violations }) => exactly(violations, ['search.k: type "number" on the wire, canonical "integer"']) },
    {
      fixture: "cut-pause-sentence",
      shows: "the pause instruction is cut from request_approval",
      scope: ["human_in_the_loop"],
      expect: ({ violations }) => [
        ...holds(violations.length === 1, `one violation expected, got ${JSON.stringify(violations)}`),
        ...allMatch(violations, /^request_approval: the canonical description does not reach the model intact — missing .*"Call this and stop; you will be told the decision\."/),
      ],
    },
    {
      // Every fidelity gate passes; only the pin sees the added titles.
      fixture: "baseline-drift",
      shows: "passes the fidelity gates, fails the baseline pin",
      scope: ["tool_use"],
      baseline: true,
      expect: ({ violations }) => allMatch(violations, /: (search|calculator)\.parameters differs from the canonical spec: .*"title"/),
    },
  ],
};

/** §8 fixtures run on tool_use alone (their rule is per request, any arena shows it). */
function controlsFixture(fixture: HostileCase["fixture"], shows: string, expect: HostileCase["expect"]): HostileCase {
  return { fixture, shows, scope: ["tool_use"], expect: (o) => [...holds(bodiesOf(o.runs) > 0, "no request reached the gateway"), ...expect(o)] };
}

/** Exactly one violation per request, each matching `pattern`. */
const perRequest = (pattern: RegExp, per = 1): HostileCase["expect"] => ({ runs, violations }) => [
  ...matching(violations, pattern, bodiesOf(runs)),
  ...holds(violations.length === per * bodiesOf(runs), `${per} violation(s) per request expected, got ${violations.length} for ${bodiesOf(runs)}`),
];

/** The §8 canary a run was given (its config overrides). */
function canaryOf(run: WireRun): { model: string; temperature: number } {
  return { model: String(run.config.model), temperature: Number(run.config.temperature) };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A hostile expectation that depends on the canary its run was given. */
const perRun = (make: (canary: { model: string; temperature: number }) => HostileCase["expect"]): HostileCase["expect"] => (o) =>
  make(canaryOf(o.runs[0]!))(o);

export const sharedControls: Probe = {
  id: "shared-controls",
  section: "§8",
  rule: "the configured model and temperature on every request, nothing outside the baseline's envelope",
  setup: (subject) => [{ id: "canary", setups: schemaArenasFor(subject).map((id) => `schema:${id}` as const) }],
  // Arenas the subject is unsupported on (no resume on a pause arena) have no requests to judge.
  // Each run judged against the canary it was given (drawn per run, and a run may come from another process).
  judge: ({ runs }) => controlsViolations([runs[0]!, ...runs.slice(1).filter((r) => r.record.available)], canaryOf, runs[0]!.declared.wireExceptions),
  hostile: [
    controlsFixture("own-model", "its own model on every request", perRun((c) => perRequest(new RegExp(`: model "gpt-4o-mini", configured ${escape(JSON.stringify(c.model))}$`)))),
    controlsFixture("own-temperature", "temperature 1.0 on every request", perRun((c) => perRequest(new RegExp(`: temperature 1, configured ${escape(String(c.temperature))}$`)))),
    controlsFixture("no-temperature", "no temperature on any request", perRun((c) => perRequest(new RegExp(`: temperature missing, configured ${escape(String(c.temperature))}$`)))),
    controlsFixture("extra-sampling", "top_p and seed outside the envelope on every request", (o) => [
      ...matching(o.violations, /: "top_p" is outside the baseline's envelope/, bodiesOf(o.runs)),
      ...matching(o.violations, /: "seed" is outside the baseline's envelope/, bodiesOf(o.runs)),
      ...holds(o.violations.length === 2 * bodiesOf(o.runs), `two violations per request expected, got ${o.violations.length}`),
    ]),
    controlsFixture("stale-exception", "a recorded exception never sent", ({ violations }) =>
      exactly(violations, ['recorded wire exception "stop" never appears on the wire (stale; recorded reason: text-protocol loop parses generation halted at stop sequences)']),
    ),
  ],
};

/** What the adapter itself reported: the record's figures are the witness's, its own claim is kept in `reported` when it differs. */
const usageOf = (run: HostileCaseRun) => {
  const item = run.record.items[0];
  const own = item?.reported ?? item;
  return own ? { prompt_tokens: own.prompt_tokens, completion_tokens: own.completion_tokens, llm_calls: own.llm_calls } : null;
};
type HostileCaseRun = Parameters<HostileCase["expect"]>[0]["runs"][number];
const same = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

export const streaming: Probe = {
  id: "streaming",
  section: "§9",
  rule: "a streamed request asks for usage (stream_options.include_usage)",
  // One case per §1–§8 setup run: every request of every one is checked.
  setup: (subject) => setupsFor(subject).map((s) => ({ id: s, setups: [s] })),
  judge: ({ runs }) => [
    ...streamingViolations(runs[0]!),
    ...(runs[0]!.record.available && runs[0]!.bodies.length === 0 ? ["no request reached the gateway"] : []),
  ],
  hostile: [
    {
      fixture: "blind-streamer",
      shows: "both requests stream blind, and it reports zero tokens",
      cases: ["round-trip"],
      expect: ({ runs, violations }) => [
        ...holds(bodiesOf(runs) === 2, `2 requests expected, got ${bodiesOf(runs)}`),
        ...matching(violations, /streams without stream_options\.include_usage/, 2),
        ...holds(violations.length === 2, `two violations expected, got ${violations.length}`),
        ...holds(same(usageOf(runs[0]!), { prompt_tokens: 0, completion_tokens: 0, llm_calls: 2 }), `reported ${JSON.stringify(usageOf(runs[0]!))}, expected zero tokens over 2 calls`),
        ...holds(runs[0]!.servedUsage.prompt_tokens > 0, "the gateway served no prompt tokens"),
      ],
    },
    {
      fixture: "honest-streamer",
      shows: "streams with include_usage: passes, and reports what was served",
      cases: ["round-trip"],
      control: true,
      expect: ({ runs }) => {
        const run = runs[0]!;
        return [
          ...holds(run.bodies.length === 2, `2 requests expected, got ${run.bodies.length}`),
          ...holds(run.bodies.every((b) => b.stream === true && b.stream_options?.include_usage === true), "a request did not stream with include_usage"),
          ...holds(same(usageOf(run), run.servedUsage), `reported ${JSON.stringify(usageOf(run))}, served ${JSON.stringify(run.servedUsage)}`),
          ...holds(same(run.record.items[0]?.served, run.servedUsage), "the record's served usage differs from the gateway's"),
          // The reassembled stream is the same conversation: the round trip still carries the tool result.
          ...toolResultViolations(run, roundTripTruth(run.seed), markerOf(run)),
        ];
      },
    },
  ],
};
