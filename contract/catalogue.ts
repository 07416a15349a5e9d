/**
 * The real adapters, by name. This is data (a name, a module path, an arena scope), so the
 * orchestrator can plan a run without importing any adapter code: modules are only ever loaded
 * inside a worker process. Hostile fixtures are never listed here.
 */
import { fileURLToPath } from "node:url";

export interface CatalogEntry {
  readonly name: string;
  /** Absolute path of the adapter module (its default export is the Adapter). */
  readonly module: string;
  /** A variant entry: `--framework all` runs it only on these arenas (naming it runs it anywhere). */
  readonly arenas?: readonly string[];
}

/** `file` is the module below workers/adapters/: a folder's index.ts, or a variant's own file in its parent's folder. */
function entry(name: string, arenas?: readonly string[], file = `${name}/index.ts`): CatalogEntry {
  const module = fileURLToPath(new URL(`../workers/adapters/${file}`, import.meta.url));
  return arenas ? { name, module, arenas } : { name, module };
}

export const ADAPTER_CATALOG: readonly CatalogEntry[] = [
  entry("vanilla"),
  entry("vanilla-multi", ["multi_agent"], "vanilla/multi.ts"),
  entry("openai_agents"),
  entry("openai_agents-multi", ["multi_agent"], "openai_agents/multi.ts"),
  entry("langgraph"),
  entry("langgraph-multi", ["multi_agent"], "langgraph/multi/index.ts"),
];

export function findAdapter(name: string): CatalogEntry | undefined {
  return ADAPTER_CATALOG.find((e) => e.name === name);
}
