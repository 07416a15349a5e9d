/**
 * What the probes' own arenas say — arena and item ids, the sentinel word and its sentence, the
 * item inputs, the scripted replies, the round trip's search topic, the cap run's calculation —
 * drawn per run from the probe seed (canary.ts), as the config values are. A fixed value would be
 * a constant an adapter could match to behave only in probes; drawn, none can be known in
 * advance, and `ARENA_PROBE_SEED` draws the same values again to reproduce a run.
 *
 * Each setup draws under its own label, so no two setups share a word. Judges never read these
 * from this process: a run records the seed it was drawn with (WireRun.seed), and a judge draws
 * again from that seed (the run may come from another process, with another seed).
 *
 * What is not drawn is what a bench of a real arena has too (a real arena's id, prompt, tools
 * and items), or structure every arena has (the tool names an arena declares).
 */
import { dispatch } from "../../contract/tools/dispatch.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";
import { draw, pick } from "./canary.ts";

const SYLLABLES = ["ka", "lo", "mi", "ne", "ra", "su", "ti", "vo", "ze", "ba", "de", "fi", "go", "hu", "ja", "pe", "qui", "sa", "to", "wu", "len", "mar", "dor", "vin"];

/** A pronounceable word of `n` syllables. */
function word(seed: string, label: string, n: number): string {
  return Array.from({ length: n }, (_, i) => pick(seed, `${label}/${i}`, SYLLABLES)).join("");
}

/** An integer in [lo, hi]. */
function int(seed: string, label: string, lo: number, hi: number): number {
  return lo + Math.floor(draw(seed, label) * (hi - lo + 1));
}

/** An arena id shaped like ours (`tool_use`, `rag`): one or two lower-case words. */
export function drawArenaId(seed: string, label: string): string {
  const first = word(seed, `${label}/arena-a`, int(seed, `${label}/arena-na`, 2, 3));
  return draw(seed, `${label}/arena-two`) < 0.6 ? `${first}_${word(seed, `${label}/arena-b`, 2)}` : first;
}

/** An item id shaped like ours (`tu-07`, `hitl-01`): a few letters, a dash, two digits. */
export function drawItemId(seed: string, label: string): string {
  const letters = Array.from({ length: int(seed, `${label}/id-n`, 2, 4) }, (_, i) => pick(seed, `${label}/id-${i}`, [..."abcdefghijklmnoprstuvw"])).join("");
  return `${letters}-${String(int(seed, `${label}/id-num`, 1, 40)).padStart(2, "0")}`;
}

/** A sentence that asks for one word only, and the word. */
export interface Sentinel {
  readonly word: string;
  /** The arena prompt as written (the loader collapses its whitespace to `sentence`). */
  readonly prompt: string;
  readonly sentence: string;
}

/** None is the sentence the probes used before they drew one ("Reply only with the word … and nothing else."): a sniffer knows it. */
const SENTINEL_FORMS = [
  (w: string) => `Answer with the single word ${w}, and add nothing to it.`,
  (w: string) => `Reply with ${w} alone; no other words.`,
  (w: string) => `Whatever you are asked, respond with exactly one word: ${w}.`,
  (w: string) => `Your whole reply must be the word ${w}, with nothing before or after it.`,
  (w: string) => `Say ${w} and nothing more.`,
];

export function drawSentinel(seed: string, label: string): Sentinel {
  const w = word(seed, `${label}/word`, int(seed, `${label}/word-n`, 3, 4)).toUpperCase();
  const sentence = pick(seed, `${label}/form`, SENTINEL_FORMS)(w);
  return { word: w, sentence, prompt: draw(seed, `${label}/wrap`) < 0.5 ? `\n${sentence}\n` : sentence };
}

/** A user turn with nothing a probe could be told by: a request phrased from parts, with a drawn name in it. */
export function drawRequest(seed: string, label: string): string {
  const n = word(seed, `${label}/name`, 2);
  const name = `${n[0]!.toUpperCase()}${n.slice(1)}`;
  const opener = pick(seed, `${label}/open`, [`Hi, ${name} here. `, `${name} again. `, `Hello from ${name}. `, `This is ${name}. `]);
  const ask = pick(seed, `${label}/ask`, ["What is the word?", "Go ahead.", "Give me your answer.", "Answer, please.", "What do you say?", "Your reply?"]);
  return `${opener}${ask}`;
}

/** A short scripted reply that is not the sentinel's word. */
export function drawReply(seed: string, label: string): string {
  const noun = word(seed, `${label}/noun`, 3);
  return pick(seed, `${label}/reply`, [`It is ${noun}.`, `The answer is ${noun}.`, `${noun[0]!.toUpperCase()}${noun.slice(1)}, as far as I can tell.`, `Done: ${noun}.`]);
}

/** The round trip (§4–§6): one search on a corpus topic the model names, then an answer. */
export interface RoundTrip {
  readonly args: { readonly query: string };
  /** The tool result is the message that mentions this (the topic's title). */
  readonly marker: string;
  readonly input: string;
  readonly answer: string;
}

/** A query `arg-rewriter` substitutes: a topic drawn equal to it could not catch it. */
const REWRITER_QUERY = "Statue of Liberty";
/** `truncating` keeps 200 characters: a shorter result would not show the cut. */
const MIN_RESULT_CHARS = 400;

let topics: readonly string[] | undefined;

/**
 * Corpus titles whose search result carries the title, has more than one snippet (`summarising`
 * keeps one), is long enough for `truncating` to cut, and differs from `arg-rewriter`'s: a drawn
 * topic can catch every round-trip fixture.
 */
function roundTripTopics(): readonly string[] {
  if (topics) return topics;
  const corpus = loadCorpus(DEFAULT_CORPUS_PATH);
  const rewritten = dispatch("search", { query: REWRITER_QUERY }, { corpus });
  topics = corpus
    .map((e) => e.title)
    .filter((title) => {
      const out = dispatch("search", { query: title }, { corpus });
      return title !== REWRITER_QUERY && out !== rewritten && out.includes(title) && out.includes("\n\n") && out.length >= MIN_RESULT_CHARS;
    });
  if (topics.length === 0) throw new Error("no corpus topic can carry the round trip");
  return topics;
}

const QUESTION_FORMS = [
  (t: string) => `What do you know about the ${t}?`,
  (t: string) => `Tell me one fact about ${t}.`,
  (t: string) => `Look up ${t} for me.`,
  (t: string) => `Where is ${t}, and what is it known for?`,
  (t: string) => `Give me a short note on ${t}.`,
];

export function drawRoundTrip(seed: string, label: string): RoundTrip {
  const topic = pick(seed, `${label}/topic`, roundTripTopics());
  return { args: { query: topic }, marker: topic, input: pick(seed, `${label}/question`, QUESTION_FORMS)(topic), answer: drawReply(seed, `${label}/answer`) };
}

const truths = new Map<string, string>();

/** `dispatch("search", args)` over the corpus the probe runs use. */
export function searchTruth(args: { readonly query: string }): string {
  let t = truths.get(args.query);
  if (t === undefined) truths.set(args.query, (t = dispatch("search", { ...args }, { corpus: loadCorpus(DEFAULT_CORPUS_PATH) })));
  return t;
}

/** The cap run (§3): a calculation the model asks for on every call. */
export function drawCalculation(seed: string, label: string): { readonly expr: string; readonly input: string } {
  const a = int(seed, `${label}/a`, 2, 97);
  const b = int(seed, `${label}/b`, 2, 97);
  const expr = `${a} ${pick(seed, `${label}/op`, ["+", "*", "-"])} ${b}`;
  const input = pick(seed, `${label}/ask`, [`Work out ${expr}.`, `What is ${expr}?`, `Compute ${expr} step by step.`, `I need ${expr} calculated.`]);
  return { expr, input };
}

/** The transport runs (§11): one answered question, and a warm-up item before it in the timing runs. */
export interface Transport {
  readonly arenaId: string;
  readonly hangArenaId: string;
  readonly prompt: string;
  /** The item every transport judge measures, and its input. */
  readonly measured: { readonly id: string; readonly input: string };
  readonly warmUp: { readonly id: string; readonly input: string };
  /** What the measured item must answer (the script's content). */
  readonly answer: string;
}

export function drawTransport(seed: string): Transport {
  const topic = pick(seed, "transport/topic", roundTripTopics());
  const arenaId = drawArenaId(seed, "transport");
  let hangArenaId = drawArenaId(seed, "transport-hang");
  if (hangArenaId === arenaId) hangArenaId = `${hangArenaId}_b`;
  let warmUpId = drawItemId(seed, "transport-warm-up");
  const measuredId = drawItemId(seed, "transport");
  if (warmUpId === measuredId) warmUpId = `${warmUpId}a`;
  return {
    arenaId,
    hangArenaId,
    prompt: drawSentinel(seed, "transport").prompt,
    measured: { id: measuredId, input: pick(seed, "transport/question", QUESTION_FORMS)(topic) },
    warmUp: { id: warmUpId, input: drawRequest(seed, "transport-warm-up") },
    answer: drawReply(seed, "transport/answer"),
  };
}
