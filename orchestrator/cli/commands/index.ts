/**
 * The command registry: `arena --help` lists these in this order. A command is an entry here (all
 * its usage text is made of) and a module beside this file exporting its `run`, imported only when
 * the command runs: `arena list` or `arena --help` should not load what `run` needs (execa for the
 * worker processes, piscina for scoring, the gateway).
 */
import type { Command, CommandContext, FlagSpec } from "../command.ts";

type Run = Command["run"];

function lazy(load: () => Promise<{ run: Run }>): Run {
  return async (ctx: CommandContext) => (await load()).run(ctx);
}

const RUN_FLAGS = {
  framework: {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description: "an adapter name, repeatable, or a group: `all`, `all-ts`, `all-py` (default: all)",
  },
  adapter: {
    type: "string",
    multiple: true,
    valueName: "PATH",
    description: "your own adapter module (its default export is the Adapter), repeatable; alone, only it runs",
  },
  mode: { type: "string", valueName: "mock|live", description: "mock (scripted gateway, no key) or live (default: mock)" },
  repeat: { type: "string", valueName: "N", description: "run every item N times (default: 1)" },
  concurrency: {
    type: "string",
    valueName: "N",
    description: "items in flight at once (default: the number of cores, 4 per core on a live run; clamped to what memory allows)",
  },
  "items-per-worker": {
    type: "string",
    valueName: "N",
    description:
      "items one worker process carries at once on a non-durable arena, each with its own runner, gateway identity and folder (default: 1; 8 on a live run; 1–64; durable arenas and Python adapters: always 1; recorded as items_per_worker)",
  },
  resume: {
    type: "boolean",
    description: "run only the missing cells of a recorded run (RUN: a run id, default the latest) with its recorded configuration",
  },
  "retry-errors": { type: "string", valueName: "RUN", description: "re-run only the errored cells of a recorded run" },
  force: { type: "boolean", description: "resume even though the arena data, corpus, adapter versions or config changed" },
  "keep-checkpoints": { type: "boolean", description: "keep checkpoints/<run-id>/ after a finished run (default: removed)" },
  strict: { type: "boolean", description: "any failed item exits 1, even one the expectations file lists" },
  expectations: {
    type: "string",
    valueName: "FILE",
    description: "the expected failures (default: expectations.toml beside the arenas)",
  },
  "update-expected": { type: "boolean", description: "rewrite the expectations file to this run's failures (exit 0; mock runs only)" },
  "min-pass-rate": {
    type: "string",
    valueName: "P",
    description: "live runs: every arena × framework must pass at least this fraction of its cells (0 to 1), or exit 1",
  },
  thresholds: {
    type: "string",
    valueName: "FILE",
    description: "live runs: a TOML file of minimum pass rates per arena × framework (README: Exit codes and CI)",
  },
  baseline: {
    type: "string",
    valueName: "RUN",
    description: "live runs: exit 1 when a lane regresses from this recorded live run by `arena compare`'s rule",
  },
  alpha: { type: "string", valueName: "P", description: "with --baseline: a loss must be significant, the paired item test's p < P (default: 0.05)" },
  item: {
    type: "string",
    multiple: true,
    valueName: "ID",
    description: "only these items (a partial run: no scorecard); without --arena, the arenas that have them",
  },
  shard: {
    type: "string",
    valueName: "I/N",
    description: "run only part I of N of the cells, balanced by expected cost (1-based; join the parts with arena merge)",
  },
  "no-restart": {
    type: "boolean",
    description: "measurement only: durable pauses resume on the same process, not a fresh one (recorded as no_restart; refused live and with --update-expected)",
  },
  quiet: { type: "boolean", description: "no progress on stderr (default: a live line on a terminal, heartbeats and failures when piped)" },
} as const satisfies Record<string, FlagSpec>;

/** The regression rule of `arena compare`, word for word as history/compare.ts applies it. */
export const COMPARE_RULE = [
  "Per arena × framework, each item's repeats are one unit: its pass fraction over the cells the",
  "provider served in both runs. An item is fixed (fraction up in B), broke (down) or unchanged.",
  "A lane regresses when it was available in A and not in B, or when more than --threshold of its",
  "items broke; with --alpha P, that loss must also be significant: the paired sign-flip test over",
  "items (exact McNemar at one repeat) gives p < P, with more items broken than fixed. Any",
  "regressed lane exits 1; none exits 0.",
];

/** `run` and `bench` take the same flags and positionals: both go through runFlow. */
const RUN_LIKE = { common: ["arenas-dir", "arena", "corpus"], flags: RUN_FLAGS, positionals: "[RUN]" } as const satisfies Partial<Command>;

export const COMMANDS: readonly Command[] = [
  {
    name: "validate",
    summary: "check arena folders (arena.toml, dataset.jsonl, mock_script.json) and their drift",
    common: ["arenas-dir", "arena"],
    run: lazy(() => import("./validate.ts")),
  },
  {
    name: "list",
    summary: "list the arenas: id, items, tools, durable, description",
    common: ["arenas-dir"],
    run: lazy(() => import("./list.ts")),
  },
  {
    name: "run",
    summary: "run the arenas (--arena) or items (--item) named × frameworks and write the run record, scorecards and summary",
    ...RUN_LIKE,
    run: lazy(() => import("./run.ts")),
  },
  {
    name: "bench",
    summary: "every arena × every available adapter (mock by default: no key needed)",
    ...RUN_LIKE,
    run: lazy(() => import("./bench.ts")),
  },
  {
    name: "merge",
    summary: "join the shard runs of one plan (run|bench --shard I/N) into one run: records, scorecards, summary, report",
    common: [],
    flags: {
      out: { type: "string", valueName: "DIR", description: "the runs folder the merged run is written into (default: runs/)" },
      expectations: { type: "string", valueName: "FILE", description: "the expected failures (default: expectations.toml beside the arenas)" },
      strict: { type: "boolean", description: "any failed item exits 1, even one the expectations file lists" },
      "min-pass-rate": RUN_FLAGS["min-pass-rate"],
      thresholds: RUN_FLAGS.thresholds,
      baseline: RUN_FLAGS.baseline,
      alpha: RUN_FLAGS.alpha,
    },
    positionals: "RUN...",
    run: lazy(() => import("./merge.ts")),
  },
  {
    name: "runs",
    summary: "list the recorded runs: id, date, mode, arenas, adapters, passed, status",
    common: [],
    run: lazy(() => import("./runs.ts")),
  },
  {
    name: "compare",
    summary: "diff two runs item by item (paired); exit 1 on a regression from RUN_A to RUN_B",
    common: [],
    details: COMPARE_RULE,
    flags: {
      threshold: { type: "string", valueName: "N", description: "broken items a lane may have before it regresses (default: 0)" },
      alpha: { type: "string", valueName: "P", description: "also require the paired item test's p < P for a regression (default: not required)" },
      format: { type: "string", valueName: "F", description: "text (default) or markdown (a table and the named items, for a pull request)" },
    },
    positionals: "RUN_A RUN_B",
    run: lazy(() => import("./compare.ts")),
  },
  {
    name: "score",
    summary: "re-score a recorded run's answers with today's checks into a new run folder (no model call)",
    common: [],
    positionals: "RUN",
    run: lazy(() => import("./score.ts")),
  },
  {
    name: "adapters",
    summary: "list the adapters: installed or not, arenas, pause / durable mechanism, framework version",
    common: [],
    run: lazy(() => import("./adapters.ts")),
  },
  {
    name: "clean",
    summary: "delete old run folders (runs/<run-id>/) and their checkpoints, keeping the newest",
    common: [],
    flags: {
      keep: { type: "string", valueName: "N", description: "how many of the newest runs to keep (default: 10)" },
    },
    run: lazy(() => import("./clean.ts")),
  },
  {
    name: "report",
    summary: "self-contained HTML report: RUN (id or folder, default latest) → runs/<run>/report.html; several RUNs → runs/report-<time>.html",
    common: [],
    positionals: "[RUN...]",
    run: lazy(() => import("./report.ts")),
  },
  {
    name: "probe",
    summary: "run the fairness probes: a rule × adapter table, or the hostile fixtures each probe must catch",
    common: [],
    flags: {
      framework: {
        type: "string",
        multiple: true,
        valueName: "NAME",
        description: "a catalogue adapter, repeatable, or a group: `all`, `all-ts`, `all-py` (default: all, unless --adapter is given)",
      },
      adapter: {
        type: "string",
        multiple: true,
        valueName: "PATH",
        description: "your own adapter module (its default export is the Adapter), absolute or relative to the cwd; repeatable",
      },
      fixtures: { type: "boolean", description: "run the hostile fixtures instead: each must be caught by the probe named for it" },
      probe: { type: "string", multiple: true, valueName: "ID", description: "only this probe (repeatable; default: every probe)" },
    },
    run: lazy(() => import("./probe.ts")),
  },
  {
    name: "gateway",
    summary: "serve one arena's mock script on 127.0.0.1 (prints the base URL; Ctrl-C stops)",
    common: ["arenas-dir", "arena"],
    flags: {
      port: { type: "string", valueName: "N", description: "port to listen on (default: an ephemeral port)" },
      faults: { type: "string", valueName: "S,S,…", description: "HTTP status per completions attempt, e.g. 429,200 (default: none)" },
      "retry-after": { type: "string", valueName: "SECONDS", description: "Retry-After header on injected 429/503" },
      stall: { type: "string", valueName: "SECONDS", description: "hold every non-faulted attempt this long (a hung provider)" },
      hold: { type: "string", valueName: "SECONDS", description: "send every answer this long after its request (a provider's generation time; not a fault)" },
    },
    run: lazy(() => import("./gateway.ts")),
  },
];
