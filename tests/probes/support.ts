/**
 * The run machinery of the registry (orchestrator/probes/) for suites outside it (adapters'
 * own tests, the sandbox's): the matrix of real adapters, and a plain run through the real
 * orchestrator laid out as a bench run. Nothing is implemented here twice.
 */
import { catalogueSubjects } from "../../orchestrator/probes/registry.ts";
import type { AdapterEntry } from "../../orchestrator/run/index.ts";

export { probeRun, probeRunMany, messageText, type InlineArena, type ProbeRun } from "../../orchestrator/probes/wire.ts";
export { SENTINEL_PROMPT, SENTINEL_SENTENCE } from "../../orchestrator/probes/setups.ts";

/**
 * Every real adapter the probes run against. `ARENA_EXPECT_FRAMEWORKS` (comma list) names
 * adapters that must be present and buildable: a missing one fails the suite loudly instead of
 * silently shrinking the matrix.
 */
export function probeAdapters(): AdapterEntry[] {
  return catalogueSubjects().map((s) => ({ name: s.name, module: s.module, variant: s.scope !== undefined }));
}
