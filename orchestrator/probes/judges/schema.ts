/**
 * Tool-schema fidelity (probes.md §7, seed document 000): every adapter must put the tool the
 * arena declared on the wire — every parameter, its type, a description for each, and the
 * arena's own tool description intact (containment after whitespace collapse: reflowing or
 * appending is fine, cutting a sentence is not). The baseline is pinned to the canonical spec
 * byte for byte. Framework decorations (`strict`, `title`, `additionalProperties`, a widened
 * `required`, appended guidance) are recorded as findings, never gated.
 */
import { isDeepStrictEqual } from "node:util";
import { collapseWhitespace, dumpsPy, fromJs } from "@agentic-arena/py-semantics";
import { isControlTool, specsFor } from "../../../contract/tools/registry.ts";
import type { ToolSpec } from "../../../contract/tools/specs.ts";
import type { Body, WireRun } from "../wire.ts";
import { judgeRun } from "./contract.ts";
import { mentions, toolFidelityViolations } from "../../witness/schema.ts";
import { wireFunctions } from "../../witness/wire.ts";

const tools = (body: Body): Body[] => (Array.isArray(body.tools) ? body.tools : []);

/** Index of the first request that advertises any of the arena's canonical tools (the first request, for a single agent). */
function firstToolRequest(run: WireRun, specs: readonly ToolSpec[]): number {
  return run.bodies.findIndex((b) => specs.some((s) => wireFunctions(b).has(s.function.name)));
}

/**
 * §7 gates over a run on an arena with `arenaTools`. The first request that advertises the
 * arena's tools is read; every later request must advertise them identically or not at all (a
 * tool-less pipeline stage). Control tools, handoffs and delegates are ignored.
 */
export const schemaViolations = judgeRun(function schemaViolations(run: WireRun, arenaTools: readonly string[]): string[] {
  const specs = specsFor(arenaTools);
  const first = firstToolRequest(run, specs);
  if (first === -1) return [`no request advertised any of the arena's tools ${JSON.stringify(specs.map((s) => s.function.name))}`];
  const reference = wireFunctions(run.bodies[first]!);
  const out = specs.flatMap((spec) => toolFidelityViolations(spec, reference.get(spec.function.name)));
  run.bodies.forEach((body, i) => {
    if (i <= first) return;
    const fns = wireFunctions(body);
    const present = specs.filter((s) => fns.has(s.function.name));
    if (present.length === 0) return;
    for (const spec of specs) {
      const name = spec.function.name;
      if (!isDeepStrictEqual(fns.get(name), reference.get(name))) {
        out.push(`request ${i + 1}/${run.bodies.length}: ${name} is not advertised as in request ${first + 1}`);
      }
    }
  });
  return out;
});

/** The baseline pin: every request's tools block is exactly the canonical specs, in registry order. */
export const baselinePinViolations = judgeRun(function baselinePinViolations(run: WireRun, arenaTools: readonly string[]): string[] {
  const canonical = specsFor(arenaTools);
  const out: string[] = [];
  run.bodies.forEach((body, i) => {
    const wire = tools(body);
    const at = `request ${i + 1}/${run.bodies.length}`;
    const names = wire.map((t) => t?.function?.name);
    const expected = canonical.map((s) => s.function.name);
    if (!isDeepStrictEqual(names, expected)) {
      out.push(`${at}: advertises ${JSON.stringify(names)}, the canonical set is ${JSON.stringify(expected)}`);
      return;
    }
    canonical.forEach((spec, j) => {
      const fn = wire[j]?.function ?? {};
      for (const key of ["description", "parameters"] as const) {
        if (!isDeepStrictEqual(fn[key], JSON.parse(JSON.stringify(spec.function[key])))) {
          out.push(`${at}: ${spec.function.name}.${key} differs from the canonical spec: ${JSON.stringify(fn[key])}`);
        }
      }
    });
    if (out.length === 0 && JSON.stringify(wire) !== JSON.stringify(canonical)) {
      out.push(`${at}: the tools block is not the canonical spec verbatim (key order or extra keys): ${JSON.stringify(wire)}`);
    }
  });
  return out;
});

// ---------------------------------------------------------------- findings (not gated)

export interface ToolFinding {
  readonly tool: string;
  readonly advertised: boolean;
  /** `function.strict` as sent (absent = null). */
  readonly strict: unknown;
  /** JSON paths (under `function`) where a `title` key appears. */
  readonly titles: readonly string[];
  /** `parameters.additionalProperties` as sent (absent = null). */
  readonly additionalProperties: unknown;
  readonly required: readonly string[] | null;
  /** Required on the wire but not in the canonical spec (strict mode marks defaulted `k` required). */
  readonly widenedRequired: readonly string[];
  readonly descriptionVerbatim: boolean;
  /** Text the framework put around the canonical description (collapsed), when it is there intact. */
  readonly addedGuidance: { readonly before: string; readonly after: string } | null;
  /** Per canonical parameter: verbatim, reworded, folded into the tool description, or missing. */
  readonly parameterDescriptions: Readonly<Record<string, "verbatim" | "reworded" | "folded" | "missing" | "absent">>;
  /** Keys of `function` beyond name/description/parameters. */
  readonly extraFunctionKeys: readonly string[];
  /** Per parameter, keys beyond the canonical ones (e.g. `title`, `nullable`). */
  readonly extraParameterKeys: Readonly<Record<string, readonly string[]>>;
}

export interface ArenaSchemaFinding {
  readonly arena: string;
  readonly advertised: readonly string[];
  /** Advertised names that are not canonical tools (control tools, handoffs, delegates). */
  readonly exempt: readonly string[];
  /** Python `json.dumps` length of the first tool-bearing request's tools block (what the gateway bills). */
  readonly toolsBlockChars: number;
  readonly canonicalBlockChars: number;
  readonly tools: readonly ToolFinding[];
}

function titlePaths(value: unknown, at: string, out: string[]): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => titlePaths(v, `${at}[${i}]`, out));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "title") out.push(at || "(function)");
      titlePaths(v, at ? `${at}.${k}` : k, out);
    }
  }
  return out;
}

function toolFinding(spec: ToolSpec, fn: Body | undefined): ToolFinding {
  const name = spec.function.name;
  const canonicalProps = spec.function.parameters.properties;
  if (!fn) {
    return {
      tool: name,
      advertised: false,
      strict: null,
      titles: [],
      additionalProperties: null,
      required: null,
      widenedRequired: [],
      descriptionVerbatim: false,
      addedGuidance: null,
      parameterDescriptions: Object.fromEntries(Object.keys(canonicalProps).map((p) => [p, "absent" as const])),
      extraFunctionKeys: [],
      extraParameterKeys: {},
    };
  }
  const description = typeof fn.description === "string" ? fn.description : "";
  const canonical = collapseWhitespace(spec.function.description);
  const onWire = collapseWhitespace(description);
  const at = onWire.indexOf(canonical);
  const props: Body = fn.parameters?.properties ?? {};
  const required = Array.isArray(fn.parameters?.required) ? (fn.parameters.required as string[]) : null;
  return {
    tool: name,
    advertised: true,
    strict: fn.strict ?? null,
    titles: titlePaths(fn.parameters ?? {}, "parameters", []),
    additionalProperties: fn.parameters?.additionalProperties ?? null,
    required,
    widenedRequired: (required ?? []).filter((r) => !spec.function.parameters.required.includes(r)),
    descriptionVerbatim: description === spec.function.description,
    addedGuidance:
      at === -1 || onWire === canonical ? null : { before: onWire.slice(0, at).trim(), after: onWire.slice(at + canonical.length).trim() },
    parameterDescriptions: Object.fromEntries(
      Object.entries(canonicalProps).map(([p, c]) => {
        const w = props[p];
        if (!w) return [p, "absent"];
        if (typeof w.description === "string" && w.description.trim() !== "") {
          return [p, w.description === c.description ? "verbatim" : "reworded"];
        }
        return [p, mentions(description, p) ? "folded" : "missing"];
      }),
    ),
    extraFunctionKeys: Object.keys(fn).filter((k) => !["name", "description", "parameters"].includes(k)),
    extraParameterKeys: Object.fromEntries(
      Object.entries(canonicalProps)
        .filter(([p]) => props[p])
        .map(([p, c]) => [p, Object.keys(props[p]).filter((k) => !(k in c))]),
    ),
  };
}

/** What §7 records for one arena run (from the first request that advertises the arena's tools). */
export function schemaFindings(run: WireRun, arena: string, arenaTools: readonly string[]): ArenaSchemaFinding | null {
  const specs = specsFor(arenaTools);
  const first = firstToolRequest(run, specs);
  if (!run.record.available || first === -1) return null;
  const body = run.bodies[first]!;
  const fns = wireFunctions(body);
  const advertised = [...fns.keys()];
  return {
    arena,
    advertised,
    exempt: advertised.filter((n) => isControlTool(n) || !specs.some((s) => s.function.name === n)),
    toolsBlockChars: dumpsPy(fromJs(tools(body))).length,
    canonicalBlockChars: dumpsPy(fromJs(JSON.parse(JSON.stringify(specs)))).length,
    tools: specs.map((s) => toolFinding(s, fns.get(s.function.name))),
  };
}
