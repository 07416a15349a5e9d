/**
 * The Node host's conformance adapter (tests/hosts/conformance.test.ts): its runner returns, or
 * throws, what the item's input says, so a vector decides exactly what the host has to validate.
 * Its twin is conformance.py; both read the same markers for values JSON cannot carry.
 */
import type { Adapter, Json, WorkItem } from "../../../contract/adapter.ts";

function decode(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decode);
  if (v === null || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  if ("$nan" in o) return Number.NaN;
  if ("$inf" in o) return Number.POSITIVE_INFINITY;
  if ("$set" in o) return new Set(o.$set as unknown[]);
  if ("$map" in o) return new Map(o.$map as [unknown, unknown][]);
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, decode(x)]));
}

function answer(item: WorkItem): unknown {
  const asked = JSON.parse(item.input) as { return?: unknown; raise?: string };
  if (asked.raise !== undefined) throw new Error(asked.raise);
  return decode(asked.return);
}

const adapter: Adapter = {
  name: "conformance",
  libVersion: "conformance 1",
  delegates: ["ask_helper"],
  wireExceptions: [{ key: "stop", reason: "conformance: a declared exception crosses as data" }],
  build(arena) {
    if (arena.systemPrompt === "refuse to build") throw new Error("asked to refuse");
    return {
      run: async (item) => answer(item) as never,
      resume: async (_item, state: Json, decision) => ({ output_text: decision, raw: state }),
    };
  },
};
export default adapter;
