/**
 * Each item's question, for the item table. Run records keep the answer, not the question; the
 * manifest names each arena's folder and the fingerprint its files had when the run was made.
 * The dataset is read only when that fingerprint still holds, so a report never pairs an answer
 * with a question the run did not ask; otherwise (or with no manifest) the table falls back to the
 * first user message of the item's transcript (html/items.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { datasetLines } from "../../arena/dataset.ts";
import { fingerprintArena, type Manifest } from "../../store/manifest.ts";

/** Arena id → item id → input text. */
export type ArenaInputs = Record<string, Record<string, string>>;

function inputText(value: unknown): string {
  if (typeof value === "string") return value;
  // A non-string input (a list of turns, say) is shown as the JSON the dataset holds.
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? Object.fromEntries(v) : typeof v === "bigint" ? Number(v) : v)) ?? "";
}

/** The questions of one arena folder's dataset.jsonl; lines that do not read are left out, never fatal. */
export function datasetInputs(arenaDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  let text: string;
  try {
    text = readFileSync(path.join(arenaDir, "dataset.jsonl"), "utf8");
  } catch {
    return out;
  }
  for (const entry of datasetLines(text)) {
    if (!(entry.value instanceof Map)) continue;
    const id = entry.value.get("id");
    if (typeof id === "string" && entry.value.has("input")) out[id] = inputText(entry.value.get("input"));
  }
  return out;
}

/** Every arena of the manifest whose files are still the ones the run used. */
export function manifestInputs(manifest: Pick<Manifest, "arenas"> | undefined): ArenaInputs {
  const out: ArenaInputs = {};
  for (const arena of manifest?.arenas ?? []) {
    if (!existsSync(arena.path)) continue;
    if (fingerprintArena(arena.path) !== arena.sha256) continue;
    out[arena.id] = datasetInputs(arena.path);
  }
  return out;
}
