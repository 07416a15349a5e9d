/**
 * Where the probes of §10–§15 find their arenas: our own, and the original project's (the
 * reference, read in place beside the repository, never copied). The spec states those setups
 * on the reference items, with the baseline's numbers pinned, so a catalogued adapter is judged
 * there when it is present; our arenas carry the hostile fixtures, and stand in for the reference
 * where it is absent, so every probe can still fail.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_ARENAS_DIR } from "../arena/discover.ts";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";
import type { Subject } from "./setups.ts";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const REFERENCE_ROOT = path.resolve(REPO_ROOT, "../shared/reference/agentic-arena-py");

export type DataRoot = "ours" | "reference";

const ROOTS: Readonly<Record<DataRoot, { readonly arenas: string; readonly corpus: string }>> = {
  ours: { arenas: DEFAULT_ARENAS_DIR, corpus: DEFAULT_CORPUS_PATH },
  reference: { arenas: path.join(REFERENCE_ROOT, "arenas"), corpus: path.join(REFERENCE_ROOT, "corpus.json") },
};

export function referencePresent(): boolean {
  return existsSync(ROOTS.reference.arenas) && existsSync(ROOTS.reference.corpus);
}

export function arenaDir(root: DataRoot, arena: string): string {
  return path.join(ROOTS[root].arenas, arena);
}

export function corpusOf(root: DataRoot): string {
  return ROOTS[root].corpus;
}

/** The roots a probe that runs on both judges a subject on: ours, and the reference when present. */
export function bothRoots(): DataRoot[] {
  return referencePresent() ? ["ours", "reference"] : ["ours"];
}

/** The one root a probe stated on the reference judges a subject on (fixtures and authors' modules: ours). */
export function specRoot(subject: Subject): DataRoot {
  return subject.catalogued && referencePresent() ? "reference" : "ours";
}
