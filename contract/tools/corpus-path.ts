/** Where the built-in search corpus lives; its own module so the CLI can name it without loading the search tool (and zod). */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DEFAULT_CORPUS_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../arenas/corpus.json");
