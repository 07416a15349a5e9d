/**
 * Where the built-in search corpus lives, and what it holds: its own module so the CLI can name it
 * without loading the search tool (and zod), and the tool definitions can name its type.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DEFAULT_CORPUS_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../arenas/corpus.json");

export interface CorpusEntry {
  readonly title: string;
  readonly text: string;
}
export type Corpus = readonly CorpusEntry[];
