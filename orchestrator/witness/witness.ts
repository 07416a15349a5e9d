/**
 * The witness: every rule over every request of every leg of an item, then the lane-level rules
 * that compare items with each other (framing that differs per item, one item's text in
 * another's requests). Repeats of one violation are counted, not copied: the first few carry the
 * evidence.
 */
import { RULES } from "./rules.ts";
import type { ItemEvidence, LaneContext, RuleViolation } from "./types.ts";
import { cut, messages, messageText, systemTexts } from "./wire.ts";

/** Evidence kept per rule per item; the rest are counted in the last one kept. */
const KEEP_PER_RULE = 3;
/** Inputs shorter than this are too generic to prove a leak ("Say the word."). */
const MIN_LEAK_CHARS = 16;

function capped(violations: RuleViolation[]): RuleViolation[] {
  const byRule = new Map<string, RuleViolation[]>();
  for (const v of violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  return [...byRule.values()].flatMap((vs) => {
    if (vs.length <= KEEP_PER_RULE) return vs;
    const kept = vs.slice(0, KEEP_PER_RULE);
    const last = kept[KEEP_PER_RULE - 1]!;
    kept[KEEP_PER_RULE - 1] = { ...last, detail: `${last.detail} (and ${vs.length - KEEP_PER_RULE} more like it)` };
    return kept;
  });
}

export function witnessItem(item: ItemEvidence, lane: LaneContext): RuleViolation[] {
  const out: RuleViolation[] = [];
  let request = 0;
  item.legs.forEach((leg, legIndex) => {
    for (const body of leg.requests) {
      request += 1;
      for (const rule of RULES) {
        if (!rule.request) continue;
        for (const detail of rule.request(body, item, lane)) out.push({ rule: rule.id, leg: legIndex + 1, request, detail });
      }
    }
  });
  for (const rule of RULES) {
    if (!rule.item) continue;
    for (const v of rule.item(item, lane)) out.push({ rule: rule.id, leg: v.leg, ...(v.request !== undefined ? { request: v.request } : {}), detail: v.detail });
  }
  return capped(out);
}

/**
 * Rules that need the whole lane, given its items in dataset order: framing that differs from
 * the first item's (it must be the same for every item of the arena), and another item's input
 * inside an item's requests (an answer carried over from memory of an earlier item).
 */
export function witnessLane(items: readonly ItemEvidence[]): Map<ItemEvidence, RuleViolation[]> {
  const out = new Map<ItemEvidence, RuleViolation[]>();
  const add = (item: ItemEvidence, v: RuleViolation) => out.set(item, [...(out.get(item) ?? []), v]);
  // The framing of the lane's first item (in dataset order) is the reference: a later item whose
  // requests carry a system text the first one's never did is framed differently. A subset (a
  // pipeline cut short by an error) is not.
  const texts = (item: ItemEvidence) => new Set(item.legs.flatMap((l) => l.requests.flatMap(systemTexts)));
  const reference = items.find((i) => i.legs.some((l) => l.requests.length > 0));
  if (reference) {
    const expected = texts(reference);
    for (const item of items) {
      if (item.itemId === reference.itemId) continue;
      const extra = [...texts(item)].find((t) => !expected.has(t));
      if (extra !== undefined) {
        add(item, { rule: "item-framing", leg: 1, detail: `a system text item ${reference.itemId}'s requests never carried: ${cut(JSON.stringify(extra), 120)}` });
      }
    }
  }
  // The repeats of an item carry its one input: searching each request for it once per repeat made
  // this rule quadratic in the repeat count (most of a 540-item lane's witness time). Each distinct
  // (item, input) is searched once; a violation still names the item, once per item as before.
  const distinct = new Map<string, ItemEvidence>();
  for (const o of items) {
    const key = JSON.stringify([o.itemId, o.input]);
    if (!distinct.has(key)) distinct.set(key, o);
  }
  const candidates = [...distinct.values()];
  for (const item of items) {
    const others = candidates.filter((o) => o.itemId !== item.itemId && o.input.length >= MIN_LEAK_CHARS && !item.input.includes(o.input));
    if (others.length === 0) continue;
    const seen = new Set<string>();
    item.legs.forEach((leg, legIndex) => {
      for (const body of leg.requests) {
        const text = messages(body).map(messageText).join("\n");
        for (const o of others) {
          if (!seen.has(o.itemId) && text.includes(o.input)) {
            seen.add(o.itemId);
            add(item, { rule: "cross-item", leg: legIndex + 1, detail: `the input of item ${o.itemId} appears in this item's requests` });
          }
        }
      }
    });
  }
  return out;
}

export const LANE_RULES = [
  { id: "item-framing", summary: "the framing around the arena prompt is the same for every item of the arena" },
  { id: "cross-item", summary: "no item's requests carry another item's input" },
] as const;
