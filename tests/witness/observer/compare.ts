/**
 * The comparisons tests/witness/indistinguishable.test.ts makes, as pure functions, so the test can
 * also feed each one a run with a signal put back and show it is caught (a comparison that
 * abstracted a signal away would pass both).
 */
import path from "node:path";
import type { InlineArena } from "../../../orchestrator/probes/wire-types.ts";
import type { OutputRoots } from "../../../orchestrator/store/layout.ts";

/**
 * Per-run random values, abstracted before the comparison — each is random in a bench too. The
 * output root is not among them: a probe and a bench use the same one.
 */
export const PER_RUN: readonly [RegExp, string][] = [
  // The gateway's port (an ephemeral port per arena gateway), and the worker id in the tag (which
  // worker of the pool is free when a lane opens, with several lanes in flight).
  [/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>"],
  [/(\/t\/[^/"]*__)w\d+\/v1/g, "$1w<n>/v1"],
  // The identity token each worker's URL carries (gateway/identity.ts): random per worker.
  [/(\/t\/[^/"]*)\.[0-9a-f]{32}\/v1/g, "$1.<token>/v1"],
  [/(\/t\/[^/"]*__)w\d+\.<token>\/v1/g, "$1w<n>.<token>/v1"],
  // mkdtemp suffixes: the private TMPDIR of each worker (sandbox/index.ts privateTmp).
  [/arena-workers-[A-Za-z0-9]{6}\/w\d+-[A-Za-z0-9]{6}/g, "arena-workers-<rand>/w<n>-<rand>"],
  // The run id: millisecond time and a random suffix (store/run-id.ts).
  [/\d{8}T\d{9}Z-[0-9a-f]{6}/g, "<run-id>"],
  // The sealed network's bridge routes (socket paths and ports are per run).
  [/"ARENA_SANDBOX_BRIDGE":"(?:[^"\\]|\\.)*"/g, '"ARENA_SANDBOX_BRIDGE":"<routes>"'],
];
/** Watched mode's per-worker survivor token (a random UUID). */
const RANDOM_ENV = ["ARENA_WORKER_TOKEN"];

/**
 * The protocol's own traffic, which every run has — in a number and order that depend on which
 * worker a lane's item lands on (a worker reused across lanes has built and answered more), so
 * it is left out of the equality; benchShapeProblems checks what a build names. Any other kind
 * (a log line: the tap's report was one) stays, and must be equal.
 */
const ORDINARY = /^(?:ready|built|build_failed|result|suspended|error|run|resume|shutdown|build .*)$/;

/** What the observer saw, with the per-run values abstracted: equal for a probe run and a bench run. */
export function normalise(seen: Record<string, any>): string {
  const copy = JSON.parse(JSON.stringify(seen)) as Record<string, any>;
  if (copy.ipc) for (const side of ["sent", "received"]) copy.ipc[side] = (copy.ipc[side] ?? []).filter((m: string) => !ORDINARY.test(m));
  for (const part of [copy.built, copy.leg]) for (const k of RANDOM_ENV) if (part?.env && k in part.env) part.env[k] = "<random>";
  let text = JSON.stringify(copy);
  for (const [re, to] of PER_RUN) text = text.replace(re, to);
  return text;
}

/**
 * Where a bench's worker is, stated: its leg's checkpoint folder is a new run's first session under
 * the bench's roots (`<checkpoints>/<run-id>/s0/<adapter>/<arena>/<item>.r0`), it was built from the
 * adapter's own module, and nothing beyond the protocol's own traffic went over its IPC channel (no
 * log line: the tap's report was one).
 */
export function benchShapeProblems(seen: Record<string, any>, roots: OutputRoots, module: string): string[] {
  const out: string[] = [];
  const dir = String(seen.leg?.item?.checkpointDir ?? "");
  const shape = new RegExp(`^${escape(roots.checkpointsDir)}/\\d{8}T\\d{9}Z-[0-9a-f]{6}/s0/observer/[^/]+/[^/]+\\.r0$`);
  if (!shape.test(dir)) out.push(`checkpoint folder ${dir} is not a new bench run's under ${roots.checkpointsDir}`);
  const sent: string[] = seen.ipc?.sent ?? [];
  const received: string[] = seen.ipc?.received ?? [];
  for (const m of sent) if (m.startsWith("log ")) out.push(`sent over IPC: ${m}`);
  for (const m of received) if (m.startsWith("build ") && path.resolve(m.slice(6)) !== path.resolve(module)) out.push(`built from ${m.slice(6)}, not the adapter's module`);
  for (const part of ["built", "leg"] as const) {
    for (const name of Object.keys(seen[part]?.env ?? {})) if (ORCHESTRATORS_OWN.test(name)) out.push(`${part}: the orchestrator's ${name} in the environment`);
  }
  return out;
}

/**
 * Variables of the orchestrator's environment no worker is handed (supervisor/worker-env.ts):
 * the run's settings (`ARENA_PROBE_SEED` is there only when a probe run is reproduced), keys and
 * proxies. The harness's own per-worker variables are not among them.
 */
const ORCHESTRATORS_OWN = /^(?:ARENA_(?!WORKER_TOKEN$|SANDBOX_BRIDGE$).*|.*_API_KEY|.*_PROXY)$/i;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Every string or number leaf of an inline arena, by its path (`items.0.input`). */
function leaves(value: unknown, at = ""): [string, string][] {
  if (typeof value === "string" || typeof value === "number") return [[at, String(value)]];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, at ? `${at}.${i}` : String(i)));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => leaves(v, at ? `${at}.${k}` : k));
  return [];
}

/**
 * What may be the same in every draw, and why: the tools an arena declares and the names of the
 * tools its script calls (structure every arena has; a bench's tool_use declares the same ones),
 * the decision a pause is resumed with, and a real arena's own id, prompt and tools (a bench of
 * that arena is handed them too).
 */
export const MAY_BE_FIXED: readonly RegExp[] = [/^tools\.\d+$/, /\.tool_calls\.\d+\.name$/, /^items\.\d+\.resume_with$/];

/**
 * The leaves of a setup's inline arenas that are the same under every seed: constants an adapter
 * could match. `draws[i]` is the setup's inline arenas drawn with the i-th seed; `real` says an
 * arena is a real one's (its id, prompt and tools may then be fixed too).
 */
export function fixedLeaves(draws: readonly (readonly InlineArena[])[], real: (arena: InlineArena) => boolean): string[] {
  const first = draws[0] ?? [];
  return first.flatMap((arena, a) => {
    const maybe = real(arena) ? [...MAY_BE_FIXED, /^id$/, /^prompt$/] : MAY_BE_FIXED;
    return leaves(arena)
      .filter(([at, v]) => !maybe.some((re) => re.test(at)) && draws.every((d) => leaves(d[a]).some(([p, w]) => p === at && w === v)))
      .map(([at, v]) => `${arena.id ?? "?"}: ${at} = ${JSON.stringify(v)}`);
  });
}
