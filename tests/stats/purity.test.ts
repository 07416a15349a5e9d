import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const DIR = path.join(import.meta.dirname, "../../orchestrator/stats");

it("orchestrator/stats imports only its own files", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".ts"));
  expect(files).toContain("index.ts");
  for (const file of files) {
    const source = readFileSync(path.join(DIR, file), "utf8");
    const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g)].map((m) => m[1]!);
    for (const spec of specifiers) {
      expect(spec, `${file} imports ${spec}`).toMatch(/^\.\/[\w-]+\.ts$/);
      expect(files, `${file} imports ${spec}`).toContain(spec.slice(2));
    }
  }
});
