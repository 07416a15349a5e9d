/**
 * §10 Usage accounting: every adapter's reported (prompt_tokens, completion_tokens, llm_calls)
 * equals what the gateway served — for a single leg, and per leg on the pause arenas, where the
 * classic bugs live (a leg counted twice, a leg dropped). The durable leg runs across a real
 * restart. An item whose requests reached the gateway under its worker's tag proves the adapter
 * used the configured base_url (harness.md §1 maps that field here).
 */
import { specRoot } from "./data-roots.ts";
import { USAGE_CASES, usageSetup } from "./data-setups.ts";
import { pinViolations, usageViolations, type Triple } from "./judges/usage.ts";
import { holds, type HostileCase, type Probe } from "./types.ts";

/** The baseline on the reference data (probes.md §10). */
const PINS: Readonly<Record<string, { total: Triple; legs?: Triple[] }>> = {
  "tu-01": { total: [616, 35, 2] },
  "hitl-01": { total: [2119, 117, 4], legs: [[907, 74, 2], [1212, 43, 2]] },
  "dur-01": { total: [3581, 149, 5], legs: [[1763, 104, 3], [1818, 45, 2]] },
};

const caseOf = (id: string) => USAGE_CASES.find((c) => c.id === id)!;
const PAUSE_CASES = USAGE_CASES.filter((c) => c.legs === 2);

/** A fixture that breaks leg 2 on both pause arenas: each case's violations must satisfy `leg2`. */
function onPauses(fixture: HostileCase["fixture"], shows: string, leg2: (item: string, v: readonly string[]) => string[]): HostileCase {
  return {
    fixture,
    shows,
    cases: PAUSE_CASES.map((c) => c.id),
    expect: ({ cases }) => cases.flatMap((o) => leg2(caseOf(o.id).item, o.violations).map((p) => `${o.id}: ${p}`)),
  };
}

const some = (v: readonly string[], test: (x: string) => boolean, what: string) => holds(v.some(test), `no violation ${what}: ${JSON.stringify(v)}`);

export const usageAccounting: Probe = {
  id: "usage-accounting",
  section: "§10",
  rule: "the usage an adapter reports equals what the gateway served, per leg on pause arenas",
  setup: (subject) => {
    const root = specRoot(subject);
    return USAGE_CASES.map((c) => ({ id: c.id, setups: [usageSetup(root, c)], ...(c.legs === 2 ? { pauses: true } : {}) }));
  },
  judge: ({ probeCase, runs, subject }) => {
    const c = caseOf(probeCase);
    const pin = subject.baseline && subject.catalogued && specRoot(subject) === "reference" ? PINS[c.item] : undefined;
    return [...usageViolations(runs[0]!, c.legs), ...(pin ? pinViolations(runs[0]!, c.item, pin) : [])];
  },
  hostile: [
    {
      fixture: "under-reporter",
      shows: "reports only the last call: the single leg's total is short",
      cases: ["single-leg"],
      expect: ({ violations }) =>
        some(violations, (x) => /^tu-01: reported \(\d+, \d+, 1\) in total but the gateway served \(\d+, \d+, 2\)/.test(x), "for tu-01's total"),
    },
    onPauses("cumulative-resume", "leg 2 includes leg 1, on human_in_the_loop and durable_state", (item, v) => [
      ...some(v, (x) => x.startsWith(`${item}: leg 2 reported`), `for ${item}'s leg 2`),
      ...holds(!v.some((x) => x.startsWith(`${item}: leg 1 reported`)), `leg 1 of ${item} is blamed too: ${JSON.stringify(v)}`),
    ]),
    onPauses("leg-dropper", "leg 2 reports zero, on human_in_the_loop and durable_state", (item, v) =>
      some(v, (x) => x.startsWith(`${item}: leg 2 reported (0, 0, 0)`), `for ${item}'s leg 2 reporting zero`),
    ),
  ],
};
