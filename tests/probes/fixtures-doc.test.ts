/**
 * docs/fixtures.md is generated from the fixture catalogue (scripts/fixtures-table.ts); this fails
 * when it is stale, and when a catalogue entry points at a fixture or a catching test that does not
 * exist (a table of proofs must not cite missing ones).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ARENA_FIXTURES, FIXTURES } from "../../fixtures/catalogue.ts";
import { DOC_PATH, renderFixturesTable } from "../../scripts/fixtures-table.ts";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { REPO_ROOT } from "../support/reference.ts";

describe("docs/fixtures.md", () => {
  it("is up to date with fixtures/catalogue.ts (regenerate: pnpm docs:fixtures)", () => {
    expect(existsSync(DOC_PATH), "docs/fixtures.md is missing: run pnpm docs:fixtures").toBe(true);
    expect(readFileSync(DOC_PATH, "utf8")).toBe(renderFixturesTable());
  });

  it("lists every fixture, each with an existing module or folder and an existing catching test", () => {
    const doc = readFileSync(DOC_PATH, "utf8");
    const entries = [...Object.values(FIXTURES), ...Object.values(ARENA_FIXTURES)];
    for (const f of entries) {
      expect(doc).toContain(`[\`${f.name}\`]`);
      expect(existsSync("module" in f ? f.module : f.dir), `${f.name}: fixture missing`).toBe(true);
      expect(existsSync(path.join(REPO_ROOT, f.caughtBy)), `${f.name}: ${f.caughtBy} does not exist`).toBe(true);
      expect(readFileSync(path.join(REPO_ROOT, f.caughtBy), "utf8"), `${f.name}: ${f.caughtBy} never names it`).toContain(f.name);
    }
  });

  it("no fixture is registered as a real adapter", () => {
    const real = new Set(ADAPTER_CATALOG.map((e) => e.name));
    expect(Object.keys(FIXTURES).filter((n) => real.has(n))).toEqual([]);
  });
});
