/**
 * Tool-schema fidelity (probes.md §7): the tool the arena declared reaches the model — every
 * parameter, its type, a description for each, the canonical tool description intact
 * (containment after whitespace collapse). Framework decorations (`strict`, `title`,
 * `additionalProperties`, a widened `required`, appended guidance) are findings, not violations.
 */
import { collapseWhitespace } from "@agentic-arena/py-semantics";
import type { ToolSpec } from "../../contract/tools/specs.ts";
import type { Body } from "./wire.ts";

/** Whether `name` occurs in `text` as a word (a tool description that folds in an `Args:` block). */
export function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`).test(text);
}

const sentences = (s: string) => s.split(/(?<=[.!?])\s+/).filter(Boolean);

/** The fidelity gates for one wire function against its canonical spec. */
export function toolFidelityViolations(spec: ToolSpec, fn: Body | undefined): string[] {
  const name = spec.function.name;
  if (!fn) return [`${name}: not advertised`];
  const out: string[] = [];
  const description = typeof fn.description === "string" ? fn.description : "";
  const props: Body = fn.parameters?.properties && typeof fn.parameters.properties === "object" ? fn.parameters.properties : {};
  for (const [param, canonical] of Object.entries(spec.function.parameters.properties)) {
    const wire = props[param];
    if (wire === undefined || wire === null || typeof wire !== "object") {
      out.push(`${name}.${param}: parameter missing from the wire schema`);
      continue;
    }
    if (wire.type !== canonical.type) {
      out.push(`${name}.${param}: type ${JSON.stringify(wire.type ?? null)} on the wire, canonical ${JSON.stringify(canonical.type)}`);
    }
    const described = typeof wire.description === "string" && wire.description.trim() !== "";
    if (!described && !mentions(description, param)) {
      out.push(`${name}.${param}: not described (no parameter description, and the tool description does not mention it)`);
    }
  }
  if (description.trim() === "") {
    out.push(`${name}: no tool description`);
  } else {
    const canonical = collapseWhitespace(spec.function.description);
    const onWire = collapseWhitespace(description);
    if (!onWire.includes(canonical)) {
      const missing = sentences(canonical).filter((s) => !onWire.includes(s));
      out.push(
        `${name}: the canonical description does not reach the model intact` +
          (missing.length ? ` — missing ${missing.map((s) => JSON.stringify(s)).join(", ")}` : " — its sentences were reordered or split"),
      );
    }
  }
  return out;
}
