/**
 * The contract probes, probes.md §1–§6, each with the hostile fixtures that prove it can fail
 * and exactly how each must fail (an expectation that accepted any violation would let a probe
 * that fails for the wrong reason look sound).
 */
import {
  capViolations,
  witnessedCapViolations,
  declaredToolsViolations,
  delegateCollisionViolations,
  promptViolations,
  staleDelegateViolations,
  toolArgumentViolations,
  toolResultViolations,
  transcriptViolations,
} from "./judges/contract.ts";
import { CAPS, roundTripOf, roundTripTruth, schemaArenasFor, sentinelOf } from "./setups.ts";
import { allMatch, bodiesOf, exactly, holds, includes, matching, type Probe } from "./types.ts";
import type { WireRun } from "./wire-types.ts";

/*
 * The round trip's values are drawn per run (draws.ts): each judge reads them from the seed the
 * run was drawn with, never from this process's draw. The tool result is the message mentioning
 * the topic (probes.md §4); §5's call is the scripted one, `k` may be added (it has a default);
 * §6's assistant turn carries the call (as a tool call, or replayed as text).
 */
export const markerOf = (run: WireRun) => roundTripOf(run.seed).marker;
export const expectedCallOf = (run: WireRun) => ({ name: "search", args: roundTripOf(run.seed).args, optional: ["k"] }) as const;
export const transcriptCallOf = (run: WireRun) => ({ tool: "search", argText: roundTripOf(run.seed).args.query }) as const;
const inputOf = (run: WireRun) => roundTripOf(run.seed).input;
/** The `uncapped` fixture's own safety limit (fixtures/adapters/uncapped; the iteration-cap test pins the two equal). */
export const UNCAPPED_LIMIT = 50;

const roundTrip = [{ id: "round-trip", setups: ["round-trip"] }] as const;
const sentinel = [{ id: "sentinel", setups: ["sentinel"] }] as const;

export const prompt: Probe = {
  id: "prompt",
  section: "§1",
  rule: "the arena prompt reaches the model (every request, every stage)",
  setup: () => sentinel,
  // The sentence its run was drawn with (SENTINEL_SENTENCE in this process's draw).
  judge: ({ runs }) => promptViolations(runs[0]!, sentinelOf(runs[0]!.seed).sentence),
  hostile: [
    {
      fixture: "hardcoded-prompt",
      shows: "every request lacks the arena prompt",
      expect: ({ runs, violations }) => [
        ...holds(bodiesOf(runs) > 0, "no request reached the gateway"),
        ...matching(violations, /the arena prompt is missing/, bodiesOf(runs)),
        ...holds(violations.length === bodiesOf(runs), `one violation per request expected, got ${violations.length}`),
      ],
    },
  ],
};

export const declaredTools: Probe = {
  id: "declared-tools",
  section: "§2",
  rule: "only the arena's tools are advertised (control tools, handoffs, sound delegates exempt)",
  // A delegate shows up only on the adapter's own arena(s): a variant's scope, shared with §7.
  setup: (subject) => [{ id: "sentinel", setups: ["sentinel", ...(subject.scope ? schemaArenasFor(subject).map((id) => `schema:${id}` as const) : [])] }],
  judge: ({ runs, arenaTools }) => {
    const delegates = runs[0]!.declared.delegates;
    return [
      ...declaredToolsViolations(runs[0]!, ["search"], delegates),
      ...delegateCollisionViolations(delegates, arenaTools),
      ...staleDelegateViolations(delegates, delegates.length > 0 ? runs : []),
    ];
  },
  hostile: [
    {
      fixture: "extra-tool",
      shows: "every request advertises the undeclared calculator",
      expect: ({ runs, violations }) => [
        ...matching(violations, /undeclared \["calculator"\]/, bodiesOf(runs)),
        ...holds(violations.length === bodiesOf(runs), `one violation per request expected, got ${violations.length}`),
      ],
    },
    {
      fixture: "smuggled-delegate",
      shows: "the collision check fails, and the harness refuses the adapter",
      expect: ({ runs, violations }) => [
        ...includes(violations, "adapter declared ['search'] as delegates, but the arena declares them as tools — a delegate exemption may not cover a task capability"),
        ...holds(runs[0]!.record.available === false, "the harness built it"),
        ...holds((runs[0]!.record.reason ?? "").includes("adapter declared ['search'] as delegates"), `refused for another reason: ${runs[0]!.record.reason}`),
        ...holds(/unavailable/.test(violations[0] ?? ""), `the wire check did not report it unavailable: ${violations[0]}`),
      ],
    },
    {
      fixture: "stale-delegate",
      shows: "the stale-delegate check fails, and only that",
      expect: ({ violations }) => exactly(violations, ['declared delegate "writer" is never advertised on the adapter\'s own arena (a stale exemption)']),
    },
  ],
};

const served = (n: number, cap: number) => `served ${n} LLM requests with max_tool_iterations = ${cap} (must be exactly ${cap})`;
const capCase = (id: string) => Number(id.slice(4));

/** What the witness says of the same run (witness/limits.ts), on its one item's one leg. */
const witnessed = (run: { record: { items: readonly { item_id: string }[] } }, n: number, cap: number) =>
  `witness: ${run.record.items[0]?.item_id} leg 1: iteration-cap: ` +
  (n > cap ? `served ${n} LLM calls in one leg with max_tool_iterations = ${cap} (at most ${cap})` : `reported "max tool iterations exceeded" after ${n} served LLM call(s): the budget is ${cap}`);

/** §3 fixtures: each cap case must fail with exactly this served count, on the wire and in the run's own witness. */
function capsServed(count: (cap: number) => number) {
  return ({ cases }: { cases: readonly { id: string; runs: readonly WireRun[]; violations: readonly string[] }[] }) => [
    ...holds(cases.length === CAPS.length, `expected the ${CAPS.length} cap cases, got ${cases.length}`),
    ...cases.flatMap((c) => {
      const [n, cap] = [count(capCase(c.id)), capCase(c.id)];
      return exactly(c.violations, [served(n, cap), witnessed(c.runs[0]!, n, cap)]).map((p) => `${c.id}: ${p}`);
    }),
  ];
}

export const iterationCap: Probe = {
  id: "iteration-cap",
  section: "§3",
  rule: "exactly max_tool_iterations LLM calls (two different caps drawn per run), and the run ends by itself",
  setup: () => CAPS.map((n) => ({ id: `cap-${n}`, setups: [`cap-${n}` as const] })),
  judge: ({ probeCase, runs }) => [...capViolations(runs[0]!, capCase(probeCase)), ...witnessedCapViolations(runs[0]!)],
  hostile: [
    { fixture: "cap-plus-one", shows: "serves cap + 1 requests", expect: capsServed((n) => n + 1) },
    { fixture: "cap-minus-one", shows: "serves cap − 1 requests", expect: capsServed((n) => n - 1) },
    { fixture: "uncapped", shows: `serves its safety limit (${UNCAPPED_LIMIT})`, expect: capsServed(() => UNCAPPED_LIMIT) },
    // Honest wherever a probe mark shows (fixtures/adapters/probe-sniffer/sniff.ts): it is caught only because a probe run leaves none.
    { fixture: "probe-sniffer", shows: "finds no probe mark, so serves cap + 1 here as on a bench", expect: capsServed((n) => n + 1) },
  ],
};

const partialResult = /does not contain dispatch's output .* in full: it matches for \d+ of \d+ characters/;

export const toolResult: Probe = {
  id: "tool-result",
  section: "§4",
  rule: "the tool result reaches the model byte for byte",
  setup: () => roundTrip,
  judge: ({ runs }) => toolResultViolations(runs[0]!, roundTripTruth(runs[0]!.seed), markerOf(runs[0]!)),
  hostile: (["truncating", "summarising"] as const).map((fixture) => ({
    fixture,
    shows: "the last request carries only part of the tool output",
    expect: ({ violations }) => [...holds(violations.length === 1, `one violation expected, got ${JSON.stringify(violations)}`), ...allMatch(violations, partialResult)],
  })),
};

export const toolArguments: Probe = {
  id: "tool-arguments",
  section: "§5",
  rule: "the tool runs on the model's own arguments",
  setup: () => roundTrip,
  judge: ({ runs }) => toolArgumentViolations(runs[0]!, expectedCallOf(runs[0]!), roundTripTruth(runs[0]!.seed), markerOf(runs[0]!)),
  hostile: [
    {
      fixture: "arg-rewriter",
      shows: "the result on the wire is not dispatch on the model's arguments (though it reports them)",
      expect: ({ violations, runs }) =>
        exactly(violations, [
          `the tool did not run on the model's arguments: the result on the wire is not dispatch("search", ${JSON.stringify(roundTripOf(runs[0]!.seed).args)})`,
        ]),
    },
  ],
};

export const transcript: Probe = {
  id: "transcript",
  section: "§6",
  rule: "the whole transcript is replayed (question, tool call, tool result)",
  setup: () => roundTrip,
  judge: ({ runs }) => transcriptViolations(runs[0]!, inputOf(runs[0]!), transcriptCallOf(runs[0]!), roundTripTruth(runs[0]!.seed), markerOf(runs[0]!)),
  hostile: [
    {
      fixture: "delta-only",
      shows: "the question and the assistant turn are missing",
      expect: ({ violations, runs }) => [
        ...includes(violations, `the last request has no user message equal to the item input ${JSON.stringify(inputOf(runs[0]!))}`),
        ...includes(violations, "the last request has no assistant message carrying the search call"),
        ...holds(violations.some((x) => /^request 2\/\d+: the first user message is absent/.test(x)), `request 2's missing question is not reported: ${JSON.stringify(violations)}`),
      ],
    },
    {
      fixture: "no-assistant",
      shows: "its own tool-call turn is missing",
      expect: ({ violations }) => exactly(violations, ["the last request has no assistant message carrying the search call"]),
    },
  ],
};
