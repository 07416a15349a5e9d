/**
 * §15 Grounding trap (rag). At scorer level, no adapter: on every unanswerable item an answer from
 * memory with one search fails on a `not_contains` check and an honest refusal passes; the
 * multi-hop items demand, and script, two different searches. Judged on our rag for every subject
 * (the data each is graded on), and on the reference rag, where every single agent also walks the
 * arena in mock mode: every item, exactly two searches per multi-hop item. (A pipeline variant is
 * scoped to multi_agent, where its extra stages are the point.) The hostile fixture is our rag
 * dataset with the `not_contains` checks removed: the probe must report the trap missing.
 */
import { loadArena } from "../arena/load.ts";
import type { Arena } from "../arena/schemas.ts";
import { ARENA_FIXTURES } from "../../fixtures/catalogue.ts";
import { arenaDir, referencePresent } from "./data-roots.ts";
import { groundingViolations, multiHopIds, multiHopScriptViolations, ragWalkViolations, type Hallucinations } from "./judges/grounding.ts";
import { exactly, holds, type Probe, type ProbeCase } from "./types.ts";

/** probes.md §15. */
export const REFERENCE_HALLUCINATIONS: Hallucinations = {
  "rag-13": "Gustave Eiffel was born in 1832 in Dijon, France.",
  "rag-14": "The Statue of Liberty was designed by Frederic Auguste Bartholdi.",
  "rag-15": "Construction of the Golden Gate Bridge began in 1933.",
};

/** Our unanswerable items (arenas/rag: rag-14..18). */
export const OUR_HALLUCINATIONS: Hallucinations = {
  "rag-14": "The Sydney Opera House was designed by the Danish architect Jorn Utzon.",
  "rag-15": "Alexander Graham Bell was born in 1847 in Edinburgh, Scotland.",
  "rag-16": "The capital city of Australia is Canberra.",
  "rag-17": "Marie Curie was born in Warsaw, Poland, in 1867.",
  "rag-18": "Michelangelo painted the ceiling of the Sistine Chapel between 1508 and 1512.",
};

/** The data of each case: where the arena is, what a model would say from memory, which items are multi-hop. */
const DATA: Readonly<Record<string, { dir: () => string; hallucinations: Hallucinations; multiHop: (ids: string[]) => string[] }>> = {
  "trap:ours": { dir: () => arenaDir("ours", "rag"), hallucinations: OUR_HALLUCINATIONS, multiHop: atLeastThree },
  "rag-reference": { dir: () => arenaDir("reference", "rag"), hallucinations: REFERENCE_HALLUCINATIONS, multiHop: (ids) => exactly(ids, ["rag-10", "rag-11", "rag-12"]) },
  "trap:rag-no-trap": { dir: () => ARENA_FIXTURES["rag-no-trap"].dir, hallucinations: OUR_HALLUCINATIONS, multiHop: atLeastThree },
};

function atLeastThree(ids: string[]): string[] {
  return holds(ids.length >= 3, `only ${ids.length} multi-hop items (${ids.join(", ")})`);
}

const arenas = new Map<string, Arena>();
function arenaAt(dir: string): Arena {
  let arena = arenas.get(dir);
  if (!arena) arenas.set(dir, (arena = loadArena(dir)));
  return arena;
}

export const groundingTrap: Probe = {
  id: "grounding-trap",
  section: "§15",
  rule: "the grounding trap can fail: an answer from memory fails on not_contains, a refusal passes, multi-hop items search twice",
  setup: (subject): ProbeCase[] => [
    { id: "trap:ours", setups: [] },
    ...(referencePresent() ? [{ id: "rag-reference", setups: subject.scope ? [] : (["rag:reference"] as const) }] : []),
  ],
  judge: ({ probeCase, runs }) => {
    const data = DATA[probeCase];
    if (!data) return [`no such grounding case ${probeCase}`];
    const rag = arenaAt(data.dir());
    const hops = multiHopIds(rag);
    return [
      ...groundingViolations(rag, data.hallucinations),
      ...data.multiHop(hops),
      ...multiHopScriptViolations(rag, hops),
      ...(runs[0] ? ragWalkViolations(runs[0].record, rag, hops) : []),
    ];
  },
  hostile: [
    {
      fixture: "rag-no-trap",
      shows: "the trap is reported missing on every unanswerable item",
      own: [{ id: "trap:rag-no-trap", setups: [] }],
      expect: ({ violations }) =>
        exactly(violations, Object.keys(OUR_HALLUCINATIONS).map((id) => `${id}: the trap is missing — the answer from memory fails only on iregex, not on a not_contains check`)),
    },
  ],
};
