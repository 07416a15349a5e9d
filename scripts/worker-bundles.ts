/**
 * Build every TypeScript catalogue adapter's worker bundle (orchestrator/supervisor/worker-entry.ts),
 * as part of `pnpm install` (postinstall), so the first run after an install starts its workers from
 * them at once. A bundle that is current is left alone; one that cannot be built is said in one line
 * and the install goes on: workers then start from the sources (a run rebuilds a stale bundle itself).
 *
 *   node scripts/worker-bundles.ts
 */
import { ADAPTER_CATALOG } from "../contract/catalogue.ts";
import { prepareWorkerEntry } from "../orchestrator/supervisor/worker-entry.ts";

const started = performance.now();
const entries = ADAPTER_CATALOG.filter((e) => e.runtime === "node");
const outcomes = await Promise.all(entries.map(async (e) => ({ name: e.name, entry: await prepareWorkerEntry({ name: e.name, module: e.module }) })));
const failed = outcomes.filter((o) => !o.entry.bundled);
for (const o of failed) process.stdout.write(`worker bundles: ${o.name} starts from the sources: ${o.entry.note ?? "unknown"}\n`);
for (const o of outcomes) if (o.entry.bundled && o.entry.note !== undefined) process.stdout.write(`worker bundles: ${o.name}: ${o.entry.note}\n`);
process.stdout.write(`worker bundles: ${outcomes.length - failed.length} of ${outcomes.length} current (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
