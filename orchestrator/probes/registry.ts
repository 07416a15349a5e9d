/**
 * The probe registry: every fairness probe `arena probe` and the probe suites run, in spec
 * order (probes.md §1–§15), and the subjects they run over.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { loadArena } from "../arena/load.ts";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { namesFor } from "../../contract/tools/registry.ts";
import { expectedAdapters, mustBuild } from "./built.ts";
import { usageAccounting } from "./accounting-probes.ts";
import { declaredTools, iterationCap, prompt, toolArguments, toolResult, transcript } from "./contract-probes.ts";
import { durable } from "./durable-probes.ts";
import { groundingTrap } from "./grounding-probes.ts";
import { pause } from "./pause-probes.ts";
import { transport } from "./transport-probes.ts";
import { served } from "./served-probes.ts";
import { isolation } from "./isolation-probes.ts";
import { checkpointWrites } from "./writes-probes.ts";
import type { Subject } from "./setups.ts";
import type { FixtureName, HostileCase, Probe } from "./types.ts";
import { sharedControls, streaming, toolSchema } from "./wire-probes.ts";

export const PROBES: readonly Probe[] = [
  prompt,
  declaredTools,
  iterationCap,
  toolResult,
  toolArguments,
  transcript,
  toolSchema,
  sharedControls,
  streaming,
  usageAccounting,
  transport,
  pause,
  durable,
  checkpointWrites,
  groundingTrap,
  served,
  isolation,
];

/** A selection the registry cannot satisfy (an unknown probe or adapter name). */
export class ProbeSelectionError extends Error {
  override readonly name = "ProbeSelectionError";
}

export function probeById(id: string): Probe {
  const probe = PROBES.find((p) => p.id === id);
  if (!probe) throw new ProbeSelectionError(`no probe ${JSON.stringify(id)} (known: ${PROBES.map((p) => p.id).join(", ")})`);
  return probe;
}

/**
 * Every catalogued adapter as a subject. `ARENA_EXPECT_FRAMEWORKS` (comma list) names adapters
 * that must be present and buildable: a name missing from the catalogue throws instead of
 * silently shrinking the matrix, and a named one that does not build fails its probes.
 */
export function catalogueSubjects(env: NodeJS.ProcessEnv = process.env): Subject[] {
  const missing = expectedAdapters(env).filter((name) => !ADAPTER_CATALOG.some((e) => e.name === name));
  if (missing.length > 0) throw new ProbeSelectionError(`ARENA_EXPECT_FRAMEWORKS names adapters that are not in the catalogue: ${missing.join(", ")}`);
  return ADAPTER_CATALOG.map((e) => ({
    name: e.name,
    module: e.module,
    ...(e.arenas ? { scope: e.arenas } : {}),
    baseline: e.name === "vanilla",
    required: mustBuild(e.name, env),
    catalogued: true,
  }));
}

/** An adapter author's own module: it must build (nothing to compare it with), no known findings. */
export function moduleSubject(module: string): Subject {
  const base = path.basename(module).replace(/\.[cm]?[jt]s$/, "");
  const name = base === "index" ? path.basename(path.dirname(module)) : base;
  return { name, module, required: true };
}

const BASELINE_MODULE = ADAPTER_CATALOG.find((e) => e.name === "vanilla")!.module;

/** The subject a hostile case runs: the fixture (a hostile arena: the baseline on it), narrowed as the case says. */
export function fixtureSubject(h: HostileCase): Subject {
  return {
    name: h.fixture,
    module: h.fixture in FIXTURES ? FIXTURES[h.fixture as keyof typeof FIXTURES].module : BASELINE_MODULE,
    ...(h.scope ? { scope: h.scope } : {}),
    ...(h.baseline ? { baseline: true } : {}),
  };
}

/** Which registry probe names each fixture (a fixture proves exactly one probe can fail). */
export function hostileIndex(probes: readonly Probe[] = PROBES): Map<FixtureName, { probe: Probe; hostile: HostileCase }> {
  const out = new Map<FixtureName, { probe: Probe; hostile: HostileCase }>();
  for (const probe of probes) for (const hostile of probe.hostile) out.set(hostile.fixture, { probe, hostile });
  return out;
}

/** The union of every arena's declared tools under `roots` (folders holding one folder per arena). */
export function allArenaTools(roots: readonly string[]): string[] {
  const names = new Set<string>();
  for (const root of roots.filter((r) => existsSync(r))) {
    for (const id of readdirSync(root).sort()) {
      if (!existsSync(path.join(root, id, "arena.toml"))) continue;
      for (const t of namesFor(loadArena(path.join(root, id)).declaredTools)) names.add(t);
    }
  }
  return [...names];
}
