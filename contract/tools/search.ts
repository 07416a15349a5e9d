/**
 * The `search` tool, the deterministic stand-in for web search (shared spec, tools.md §5):
 * token-set overlap over a fixed corpus, so results never drift between runs, machines or
 * frameworks. The corpus is loaded once per run and handed to the body as its environment.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from "node:fs";
import * as z from "zod/mini";
import { DATA_MAX_DEPTH, parsePyJson, pyInt, pyStr, toJs } from "@agentic-arena/py-semantics";
import { DEFAULT_CORPUS_PATH } from "./corpus-path.ts";
import { defineTool } from "./define.ts";
import { nonRegularKind } from "../regular-file.ts";

export { DEFAULT_CORPUS_PATH };

const CorpusSchema = z.array(z.object({ title: z.string(), text: z.string() }));

export type { Corpus, CorpusEntry } from "./corpus-path.ts";
import type { Corpus, CorpusEntry } from "./corpus-path.ts";

export class CorpusError extends Error {
  override readonly name = "CorpusError";
  readonly file: string;
  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.file = file;
  }
}

/**
 * Only a regular file (or a symlink to one) is read: a FIFO would block every worker's build until
 * a writer came. stat before opening, so a device is never opened; the descriptor is opened
 * non-blocking and checked again in case the path changed in between.
 */
function readRegularText(file: string): string {
  let kind: string | undefined;
  try {
    kind = nonRegularKind(statSync(file));
    if (kind === undefined) {
      const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        kind = nonRegularKind(fstatSync(fd));
        if (kind === undefined) return readFileSync(fd, "utf8");
      } finally {
        closeSync(fd);
      }
    }
  } catch (err) {
    throw new CorpusError(file, `cannot read: ${(err as Error).message}`);
  }
  throw new CorpusError(file, `not a regular file (${kind})`);
}

/** Read and validate `corpus.json` (a JSON array of `{title, text}` in its fixed order). */
export function loadCorpus(file: string = DEFAULT_CORPUS_PATH): Corpus {
  const text = readRegularText(file);
  const fast = nativelyParsed(text);
  if (fast !== undefined) return fast;
  let data: unknown;
  try {
    data = toJs(parsePyJson(text, { maxDepth: DATA_MAX_DEPTH }));
  } catch (err) {
    throw new CorpusError(file, `not valid JSON: ${(err as Error).message}`);
  }
  const parsed = CorpusSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join(".") : "(root)";
    throw new CorpusError(file, `expected an array of {title: string, text: string}; ${where}: ${issue.message}`);
  }
  return frozen(parsed.data);
}

/**
 * The corpus as V8's own JSON.parse reads it, when that is a corpus; else undefined. For an array
 * of objects with two strings, JSON.parse and Python's json module read the same values (the last
 * of duplicate keys, every escape, lone surrogates too), and it spares every worker start ~5 ms
 * of CPU: the Python-semantics parser's first call. Any other text takes that parser, for
 * Python's verdict and its message (tests/tools/search.test.ts compares the two).
 */
function nativelyParsed(text: string): Corpus | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = CorpusSchema.safeParse(data);
  return parsed.success ? frozen(parsed.data) : undefined;
}

function frozen(entries: readonly CorpusEntry[]): Corpus {
  return Object.freeze(entries.map((entry) => Object.freeze({ title: entry.title, text: entry.text })));
}

const WORD = /[a-z0-9]+/g;

function tokens(s: string): Set<string> {
  return new Set(s.toLowerCase().match(WORD) ?? []);
}

/** Python's `seq[:k]`: a negative k drops that many items from the end. */
function pySliceHead<T>(items: readonly T[], k: bigint): readonly T[] {
  const n = BigInt(items.length);
  const end = k >= 0n ? (k < n ? k : n) : n + k > 0n ? n + k : 0n;
  return items.slice(0, Number(end));
}

// A corpus is frozen and searched on every tool call: tokenise each document once, not per query.
const documentTokens = new WeakMap<Corpus, readonly Set<string>[]>();

function tokensOf(corpus: Corpus): readonly Set<string>[] {
  let sets = documentTokens.get(corpus);
  if (!sets) documentTokens.set(corpus, (sets = corpus.map((doc) => tokens(`${doc.title} ${doc.text}`))));
  return sets;
}

/** `k`'s declaration: its default is advertised in the spec and applies when the model leaves `k` out. */
const K = { type: "integer", description: "How many snippets.", default: 3 } as const;

export function search(corpus: Corpus, query: string, k: bigint | number = K.default): string {
  const q = tokens(query);
  if (q.size === 0) return "No results.";
  const scored: { score: number; doc: CorpusEntry }[] = [];
  const sets = tokensOf(corpus);
  for (const [i, doc] of corpus.entries()) {
    const words = sets[i]!;
    let score = 0;
    for (const word of q) if (words.has(word)) score++;
    if (score > 0) scored.push({ score, doc });
  }
  // Array.prototype.sort is stable, so ties keep corpus order as Python's sort does.
  scored.sort((a, b) => b.score - a.score);
  const hits = pySliceHead(scored, BigInt(k));
  if (hits.length === 0) return "No results.";
  return hits.map(({ doc }) => `[${doc.title}] ${doc.text}`).join("\n\n");
}

export const searchTool = defineTool({
  name: "search",
  description: "Search a knowledge base of general facts. Returns up to k text snippets.",
  parameters: {
    query: { type: "string", description: "What to look up.", required: true },
    k: K,
  },
  run: ({ query, k }, env) => search(env.corpus, pyStr(query), pyInt(k)),
});
