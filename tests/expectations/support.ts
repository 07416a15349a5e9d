/**
 * What the expectations tests build on: throwaway expectations files, two entries (OA, LG) that
 * stand for the two known mock findings of the resilience arena, and run records small enough to
 * read in the test that uses them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import {
  ExpectationsError,
  loadExpectations,
  type ComparedAdapter,
  type ComparedItem,
  type ComparedRecord,
} from "../../orchestrator/expectations/index.ts";

const roots: string[] = [];
// Registered on import, so no test file that makes a temp dir can forget to remove it (vitest
// loads this module afresh for each test file).
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arena-expectations-"));
  roots.push(dir);
  return dir;
}

/** Writes `text` as <tmp>/expectations.toml; returns its path. */
export function writeFile(text: string): string {
  const file = path.join(tempDir(), "expectations.toml");
  writeFileSync(file, text);
  return file;
}

/** The error loading `text` gives, with the file shown by its base name (cwd = its folder). */
export function loadError(text: string): ExpectationsError {
  const file = writeFile(text);
  try {
    loadExpectations(file, { cwd: path.dirname(file) });
  } catch (err) {
    if (err instanceof ExpectationsError) return err;
    throw err;
  }
  throw new Error("expected the file not to load");
}

export const entry = (fields: string): string => `[[expected]]\n${fields.trim()}\n`;
export const OA = `mode = "mock"\narena = "resilience"\nframework = "openai_agents"\nitems = ["res-02"]\nreason = "raises on an unknown tool"`;
export const LG = `mode = "mock"\narena = "resilience"\nframework = "langgraph"\nitems = ["res-01"]\nreason = "ends the run on malformed JSON"`;

export function item(item_id: string, passed: boolean, extra: Partial<ComparedItem> = {}): ComparedItem {
  return { item_id, repeat: 0, passed, error: null, ...extra };
}
export function lane(adapter: string, items: ComparedItem[], extra: Partial<ComparedAdapter> = {}): ComparedAdapter {
  return { framework: adapter, available: true, items, ...extra };
}
export function record(arena: string, adapterRecords: ComparedAdapter[], mode: "mock" | "live" = "mock"): ComparedRecord {
  return { arena, mode, frameworks: adapterRecords };
}
/** The resilience run as mock mode produces it: the two known findings. */
export function resilienceRun(overrides: { oa02?: boolean; lg01?: boolean } = {}): ComparedRecord {
  return record("resilience", [
    lane("vanilla", [item("res-01", true), item("res-02", true)]),
    lane("openai_agents", [
      item("res-01", true),
      overrides.oa02 ?? false
        ? item("res-02", true)
        : item("res-02", false, { error: "ModelBehaviorError: Tool slide_rule not found in agent assistant.", error_class: "adapter" }),
    ]),
    lane("langgraph", [item("res-01", overrides.lg01 ?? false), item("res-02", true)]),
  ]);
}
/** A file listing exactly the two findings of {@link resilienceRun}. */
export const known = () => loadExpectations(writeFile(entry(OA) + "\n" + entry(LG)));

/** An item as an update reports it added, removed or kept. */
export const ref = (adapter: string, item_id: string, arena = "resilience", mode = "mock") => ({ mode, arena, framework: adapter, item_id });
