/**
 * Writes docs/schema/*.schema.json from the zod schemas (orchestrator/report/published-schemas.ts).
 *
 *   node scripts/schemas.ts        (pnpm docs:schemas)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { publishedSchemas, SCHEMA_DIR } from "../orchestrator/report/published-schemas.ts";

const dir = path.resolve(import.meta.dirname, "..", SCHEMA_DIR);
mkdirSync(dir, { recursive: true });
for (const { file, text } of publishedSchemas()) {
  writeFileSync(path.join(dir, file), text);
  process.stdout.write(`${path.join(SCHEMA_DIR, file)}\n`);
}
