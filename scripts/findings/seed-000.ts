/**
 * The reproduction of seed 000's table (../shared/seeds/000_*.txt, "Re-running tool_use with every
 * framework describing the same tool"): prompt tokens per item on the reference `tool_use` arena,
 * the study's published figure beside ours, for each of its seven frameworks, in each edition we
 * run (the Python one on the Python host, the TypeScript one on Node).
 *
 * Every difference is taken apart mechanically from what the gateway received, against the
 * baseline's first request: LLM calls per item (prompt tokens are summed over calls), the tools
 * block's length, the messages' length (system prompt and input), and the envelope keys beyond the
 * baseline's. The published figures are the study's facts, quoted; the notes say what the pinned
 * version sends where the parts alone do not explain it.
 */
import { dumpsPy, formatFixed, type PyDict } from "@agentic-arena/py-semantics";
import type { AdapterRecord, RunRecord } from "../../orchestrator/report/record.ts";

/** Seed 000's published prompt tokens per item on `tool_use`, tools equalised (the study's own table). */
export const SEED_000_PUBLISHED: readonly { readonly framework: string; readonly tokens: number }[] = [
  { framework: "vanilla", tokens: 753.5 },
  { framework: "langgraph", tokens: 753.5 },
  { framework: "pydantic_ai", tokens: 794.0 },
  { framework: "microsoft_af", tokens: 802.0 },
  { framework: "google_adk", tokens: 836.1 },
  { framework: "openai_agents", tokens: 856.9 },
  { framework: "smolagents", tokens: 2935.5 },
];

/** The study ran each framework in Python: which of our catalogue entries is which edition. */
export const EDITIONS: Readonly<Record<string, { readonly python?: string; readonly typescript?: string }>> = {
  vanilla: { python: "vanilla-py", typescript: "vanilla" },
  langgraph: { python: "langgraph-py", typescript: "langgraph" },
  pydantic_ai: { python: "pydantic_ai" },
  microsoft_af: { python: "microsoft_af" },
  google_adk: { python: "google_adk-py", typescript: "google_adk" },
  openai_agents: { python: "openai_agents-py", typescript: "openai_agents" },
  smolagents: { python: "smolagents" },
};

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const BASELINE_KEYS = new Set(["model", "messages", "temperature", "stream", "tools", "tool_choice"]);

/** An adapter's first request of an item, in Python json.dumps characters (means over the arena's items). */
export interface FirstRequest {
  readonly tools: number;
  readonly messages: number;
  readonly extraKeys: readonly string[];
}

/**
 * The mean parts of the first request of every item, from one adapter's bodies on one arena. The
 * first request of an item is the one with the fewest messages: every later one extends it (the
 * gateway's records name the worker, not the item, so this is how an item's first is found).
 */
export function firstRequestParts(bodies: readonly PyDict[]): FirstRequest | undefined {
  const sized = bodies.map((b) => ({ b, n: (b.get("messages") as unknown[] | undefined)?.length ?? 0 }));
  const fewest = Math.min(...sized.map((x) => x.n));
  const firsts = sized.filter((x) => x.n === fewest).map((x) => x.b);
  if (firsts.length === 0) return undefined;
  const chars = (v: unknown) => (v === undefined || v === null ? 0 : dumpsPy(v as PyDict).length);
  return {
    tools: Math.round(mean(firsts.map((b) => chars(b.get("tools"))))),
    messages: Math.round(mean(firsts.map((b) => chars(b.get("messages"))))),
    extraKeys: [...new Set(firsts.flatMap((b) => [...b.keys()]))].filter((k) => !BASELINE_KEYS.has(k)),
  };
}

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

function perItem(f: AdapterRecord | undefined): { tokens: number; calls: number } | undefined {
  if (!f?.available || f.items.length === 0) return undefined;
  return { tokens: mean(f.items.map((i) => i.prompt_tokens)), calls: mean(f.items.map((i) => i.llm_calls)) };
}

/** Where one edition's figure departs from the baseline's, part by part; "" when nothing does. */
export function differenceParts(own: FirstRequest, base: FirstRequest, calls: number, baseCalls: number): string {
  const parts: string[] = [];
  if (Math.abs(calls - baseCalls) > 1e-9) parts.push(`${formatFixed(calls, 2)} calls/item vs ${formatFixed(baseCalls, 2)}`);
  if (own.tools !== base.tools) parts.push(`tools block ${signed(own.tools - base.tools)} chars`);
  if (own.messages !== base.messages) parts.push(`messages ${signed(own.messages - base.messages)} chars on the first request`);
  if (own.extraKeys.length) parts.push(`also sends ${own.extraKeys.map((k) => `\`${k}\``).join(", ")}`);
  return parts.join("; ");
}

/**
 * The section's lines. `first` holds each adapter's first request on `tool_use` (its first item);
 * `notes` what a framework's pinned version sends that the parts do not name (from its README).
 */
export function seed000Section(
  toolUse: RunRecord | undefined,
  first: ReadonlyMap<string, FirstRequest>,
  notes: Readonly<Record<string, string>>,
): string[] {
  const out = ["## Seed 000's table, reproduced (reference `tool_use`, prompt tokens per item)", ""];
  if (toolUse === undefined) return [...out, "The reference arenas were not found (../shared/reference), so nothing was reproduced.", ""];
  out.push(
    "The study's table (seed 000, \"every framework describing the same tool\") beside ours, from the run above. Each",
    "difference from the baseline is taken apart from the first request of each item the gateway received (means over the",
    "items); what happens later in an item (the replay of its history) shows only in the figure and the note.",
    "",
    "| framework | published | ours, Python edition | ours, TypeScript edition | where ours departs from the baseline |",
    "|---|--:|--:|--:|---|",
  );
  const record = (name: string | undefined) => (name === undefined ? undefined : toolUse.frameworks.find((f) => f.framework === name));
  const baseName = "vanilla";
  const base = perItem(record(baseName));
  const baseFirst = first.get(baseName);
  for (const { framework, tokens } of SEED_000_PUBLISHED) {
    const { python, typescript } = EDITIONS[framework] ?? {};
    const cells: string[] = [];
    const why: string[] = [];
    for (const [edition, name] of [["Python", python], ["TypeScript", typescript]] as const) {
      const fig = perItem(record(name));
      if (name === undefined) {
        cells.push("— (no such edition)");
        continue;
      }
      if (fig === undefined) {
        const f = record(name);
        cells.push(f ? `n/a (${f.unavailable_kind})` : "— (not in this run)");
        continue;
      }
      cells.push(`${formatFixed(fig.tokens, 1)} (\`${name}\`)`);
      const own = first.get(name);
      const parts = own && baseFirst && base ? differenceParts(own, baseFirst, fig.calls, base.calls) : "";
      if (name !== baseName && parts) why.push(`${edition}: ${parts}`);
    }
    if (notes[framework]) why.push(notes[framework]!);
    out.push(`| \`${framework}\` | ${formatFixed(tokens, 1)} | ${cells.join(" | ")} | ${why.join(". ") || "the baseline's wire, byte for byte"} |`);
  }
  out.push("");
  return out;
}
