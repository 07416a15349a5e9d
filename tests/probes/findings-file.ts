/**
 * Where the probes leave what they measure but do not gate (runs/findings/<name>.json, read by
 * scripts/findings.ts): one stamped, pretty-printed JSON document per probe.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../support/reference.ts";

export const FINDINGS_DIR = path.join(REPO_ROOT, "runs", "findings");

export function writeFindings(name: string, probe: string, fields: Record<string, unknown>): void {
  mkdirSync(FINDINGS_DIR, { recursive: true });
  const doc = { probe, generated_at: new Date().toISOString(), ...fields };
  writeFileSync(path.join(FINDINGS_DIR, `${name}.json`), `${JSON.stringify(doc, null, 2)}\n`);
}
