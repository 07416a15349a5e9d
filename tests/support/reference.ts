/**
 * Where the original project's arena data lives (a compatibility fixture read in place, never
 * copied). Tests that need it use `describeWithReference`: skipped only when the folder is absent,
 * and a hard failure when `ARENA_REQUIRE_REFERENCE=1` (set by `.ci/run`), so CI cannot skip them.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { describe } from "vitest";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const REFERENCE_ROOT = path.resolve(REPO_ROOT, "../shared/reference/agentic-arena-py");
export const REFERENCE_ARENAS = path.join(REFERENCE_ROOT, "arenas");
export const REFERENCE_CORPUS = path.join(REFERENCE_ROOT, "corpus.json");

export const referencePresent = existsSync(REFERENCE_ARENAS) && existsSync(REFERENCE_CORPUS);

if (!referencePresent && process.env.ARENA_REQUIRE_REFERENCE === "1") {
  throw new Error(`ARENA_REQUIRE_REFERENCE=1 but the reference data is missing at ${REFERENCE_ROOT}`);
}

/** `describe` that runs only when the reference data is present. */
export const describeWithReference = referencePresent ? describe : describe.skip;
