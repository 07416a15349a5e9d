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
    description: "an adapter name, repeatable, or `all` (default: all)",
  },
  mode: { type: "string", valueName: "mock|live", description: "mock (scripted gateway, no key) or live (default: mock)" },
  repeat: { type: "string", valueName: "N", description: "run every item N times (default: 1)" },
  concurrency: { type: "string", valueName: "N", description: "items in flight at once (default: number of cores)" },
} as const satisfies Record<string, FlagSpec>;

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
    summary: "run arenas × frameworks and write the run record, scorecards and summary",
    common: ["arenas-dir", "arena", "corpus"],
    flags: {
      ...RUN_FLAGS,
      item: { type: "string", multiple: true, valueName: "ID", description: "only these items (a partial run: no scorecard)" },
    },
    run: lazy(() => import("./run.ts")),
  },
  {
    name: "bench",
    summary: "every arena × every available adapter (mock by default: no key needed)",
    common: ["arenas-dir", "corpus"],
    flags: RUN_FLAGS,
    run: lazy(() => import("./bench.ts")),
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
    },
    run: lazy(() => import("./gateway.ts")),
  },
];
