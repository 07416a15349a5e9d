/**
 * The served-wire rules as a probe (issue 18): a whole arena run as a bench runs it, judged on the
 * rules the witness checks on every run — the answer, tool calls and pause as served, the
 * append-only transcript, exact prompts and tools, declared framework messages. The probe reads
 * the run's own record, so what it catches is exactly what `pnpm bench` catches; its fixtures are
 * honest on their first requests and cheat later, which one probe item would never show.
 */
import type { HostileCase, Probe } from "./types.ts";
import { holds } from "./types.ts";

/** The witness rules this probe reads from the run record. */
export const SERVED_RULES = ["served-result", "transcript", "tool-output", "framework-message", "system-prompt", "tool-schema"] as const;

const arenaOf = (scope: readonly string[] | undefined) => (scope && !scope.includes("tool_use") ? "multi_agent" : "tool_use");

/** A whole arena run as a bench runs it: tool_use, or multi_agent for a pipeline variant (shared by every probe that asks). */
export const wholeArenaRun: Probe["setup"] = (subject) => [{ id: arenaOf(subject.scope), setups: [`witness:ours:${arenaOf(subject.scope)}`] }];

function caughtBy(fixture: HostileCase["fixture"], rules: readonly string[], shows: string, scope?: readonly string[]): HostileCase {
  return {
    fixture,
    shows,
    ...(scope ? { scope } : {}),
    expect: ({ violations, runs }) => {
      const first = `${runs[0]?.record.items[0]?.item_id ?? "?"} `;
      return [
        ...holds(violations.length > 0, "no violation at all"),
        ...rules.flatMap((rule) => holds(violations.some((v) => v.includes(`: ${rule}: `)), `no ${rule} violation: ${JSON.stringify(violations.slice(0, 4))}`)),
        // Honest at first: its first item in each worker is clean, so the probe must read the whole run.
        ...holds(!violations.some((v) => v.startsWith(first)), `${first}(its first item) is caught too: ${JSON.stringify(violations.filter((v) => v.startsWith(first)))}`),
      ];
    },
  };
}

export const served: Probe = {
  id: "served-wire",
  section: "witness",
  rule: "the scored result is the served one; the transcript is append-only; prompts, tools and messages exactly as declared",
  setup: wholeArenaRun,
  judge: ({ runs }) => {
    const run = runs[0]!;
    if (!run.record.available) return [`the run did not happen: ${run.record.reason ?? "unavailable"}`];
    return run.record.items.flatMap((item) =>
      (item.violations ?? [])
        .filter((v) => (SERVED_RULES as readonly string[]).includes(v.rule))
        .map((v) => `${item.item_id} r${item.repeat} leg ${v.leg}${v.request ? ` request ${v.request}` : ""}: ${v.rule}: ${v.detail}`),
    );
  },
  hostile: [
    caughtBy("answer-rebuilder", ["served-result"], "rebuilds its answer from its own tool results from its third item on"),
    caughtBy("history-trimmer", ["transcript"], "drops the oldest tool exchange from its third request on"),
    caughtBy("arg-launderer", ["transcript", "tool-output"], "rewrites its earlier search calls and their results from its third request on"),
    caughtBy("coached", ["system-prompt"], "appends coaching to the system prompt from its third request on"),
    caughtBy("tool-leak", ["tool-schema"], "puts a dataset value in calculator's description from its third request on"),
    caughtBy("dash-params", ["tool-schema"], "reduces parameter descriptions to \"-\" from its third request on"),
    caughtBy("whisperer", ["framework-message"], "adds a hint as a user message from its third request on"),
    caughtBy("handoff-stuffer", ["tool-output"], "adds a note to its handoffs' results from its second item on (multi_agent)", ["multi_agent"]),
  ],
};
