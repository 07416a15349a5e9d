/**
 * A worker sees only its own item and can be no one but itself (issue 19), as a probe: a whole
 * arena run as a bench runs it, judged on what the run itself recorded — requests refused for
 * their identity or sent under the worker's identity outside every leg (the lane's isolation
 * record), and writes outside the item's folder and TMPDIR (the item's `sandbox-write`). It reads
 * the run's own record, so what it catches is exactly what `pnpm bench` catches, and it shares
 * the served-wire probe's run. Its fixtures start cheating after their first requests or items.
 */
import { SANDBOX_WRITE_RULE } from "../run/item.ts";
import { wholeArenaRun } from "./served-probes.ts";
import type { HostileCase, Probe } from "./types.ts";
import { holds } from "./types.ts";


function caught(fixture: HostileCase["fixture"], pattern: RegExp, shows: string): HostileCase {
  return {
    fixture,
    shows,
    expect: ({ violations }) => [
      ...holds(violations.some((v) => pattern.test(v)), `nothing matches ${pattern}: ${JSON.stringify(violations.slice(0, 4))}`),
      ...holds(violations.every((v) => pattern.test(v)), `a violation it was not built for: ${JSON.stringify(violations.filter((v) => !pattern.test(v)).slice(0, 4))}`),
    ],
  };
}

export const isolation: Probe = {
  id: "isolation",
  section: "witness",
  rule: "a worker writes only its item's folder and TMPDIR, and sends only under its own identity, only during its legs",
  setup: wholeArenaRun,
  judge: ({ runs }) => {
    const record = runs[0]!.record;
    if (!record.available) return [`the run did not happen: ${record.reason ?? "unavailable"}`];
    return [
      ...(record.isolation?.violations ?? []).map((v) => `lane: ${v}`),
      ...record.items.flatMap((i) => (i.violations ?? []).filter((v) => v.rule === SANDBOX_WRITE_RULE).map((v) => `${i.item_id} r${i.repeat} leg ${v.leg}: ${v.detail}`)),
    ];
  },
  hostile: [
    caught("tag-forger", /^lane: tag-forger\S*: sent a request claiming vanilla__tool_use__w0 \((wrong token|unknown identity); refused\)$/, "sends copies of its requests under the baseline's tag from its third request on"),
    {
      fixture: "dataset-reader",
      control: true,
      shows: "reads the dataset from its third item on to hint the expected values: sealed it cannot, and its wire stays clean",
      // Sealed, prevented: nothing it sent carries a hint. Watched, the read works (the served-wire
      // probe's tool-schema catches the hint): shown so the contrast is on record, not assumed.
      expect: ({ runs }) => {
        const hinted = runs.flatMap((r) => r.bodies).some((b) => JSON.stringify(b.tools ?? []).includes("the dataset expects"));
        return runs[0]?.record.isolation?.level === "sandbox"
          ? holds(!hinted, "sealed, it still read the dataset: a request carries its hint")
          : holds(hinted, "watched, it could not read the dataset: the contrast the sealed case rests on is gone");
      },
    },
    caught("item-stasher", /^(tu-\d+ r0 leg 1: wrote .*\/answers\.json \(outside its item's folder and TMPDIR; removed\)|lane: .*answers\.json.*)$/, "keeps its answers beside its item's folder from its second item on"),
  ],
};
