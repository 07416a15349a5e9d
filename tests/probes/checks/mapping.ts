/**
 * The config-field mapping guard (harness.md §1): every configuration and arena-spec field is either
 * mapped to the probe that proves it reaches adapters, or declared harness-only. Field lists are
 * read from the source (interfaces with the TypeScript parser, zod schemas from their shapes), so a
 * new field with no mapping fails the suite instead of slipping past the probes.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export type Mapping =
  | { readonly probe: string; /** Text the probe file must contain (it really exercises the field). */ readonly evidence: string }
  | { readonly harnessOnly: string };

/** Property names of an exported interface in a TypeScript source file. */
export function interfaceFields(file: string, name: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  let fields: string[] | undefined;
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === name) {
      fields = node.members.filter(ts.isPropertySignature).map((m) => m.name.getText(source));
    }
  });
  if (!fields) throw new Error(`interface ${name} not found in ${file}`);
  return fields;
}

/** Unmapped fields, mappings for fields that no longer exist, and mapped probes that do not exist or do not mention the field. */
export function mappingViolations(label: string, fields: readonly string[], mapping: Readonly<Record<string, Mapping>>, repoRoot: string): string[] {
  const out: string[] = [];
  for (const f of fields) if (!(f in mapping)) out.push(`${label}.${f}: not mapped to a probe nor declared harness-only`);
  for (const f of Object.keys(mapping)) if (!fields.includes(f)) out.push(`${label}.${f}: mapped, but no such field (stale mapping)`);
  for (const [f, m] of Object.entries(mapping)) {
    if (!fields.includes(f)) continue;
    if ("harnessOnly" in m) {
      if (!m.harnessOnly.trim()) out.push(`${label}.${f}: harness-only without a reason`);
      continue;
    }
    const file = path.join(repoRoot, m.probe);
    if (!existsSync(file)) out.push(`${label}.${f}: probe ${m.probe} does not exist`);
    else if (!readFileSync(file, "utf8").includes(m.evidence)) out.push(`${label}.${f}: probe ${m.probe} never mentions ${JSON.stringify(m.evidence)}`);
  }
  return out;
}
