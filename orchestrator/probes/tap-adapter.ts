/**
 * A pass-through adapter for probes: it loads the adapter named by `ARENA_PROBE_TAP_INNER`,
 * forwards everything unchanged, and appends what each leg returned (or threw) to the JSON-lines
 * file `ARENA_PROBE_TAP_LOG`. The run record keeps only tool-call *names*; the tool-arguments
 * probe (§5) needs the arguments the adapter itself reported. Nothing about the wire changes:
 * the adapter still runs in its own worker process against the real gateway.
 *
 * On load it also logs the adapter's declarations (delegates, wire exceptions): §2 and §8 judge
 * them, and reading them here keeps adapter code out of the orchestrator's process — the
 * declaration is logged even when the harness then refuses the adapter (a smuggled delegate).
 */
import { appendFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { Adapter, Runner } from "../../workers/adapters/types.ts";

const innerModule = process.env.ARENA_PROBE_TAP_INNER;
const logFile = process.env.ARENA_PROBE_TAP_LOG;
if (!innerModule || !logFile) throw new Error("tap adapter: ARENA_PROBE_TAP_INNER and ARENA_PROBE_TAP_LOG must be set");

const inner = (await import(pathToFileURL(innerModule).href)).default as Adapter;

export interface TapEntry {
  readonly leg: "run" | "resume";
  readonly item: string;
  readonly result?: unknown;
  readonly threw?: string;
}

/** The first line each worker writes: what the adapter module declares. */
export interface TapDeclaration {
  readonly declared: {
    readonly delegates: readonly string[];
    readonly wireExceptions: readonly { readonly key: string; readonly reason: string }[];
  };
}

function log(entry: TapEntry): void {
  let line: string;
  try {
    line = JSON.stringify(entry);
  } catch (err) {
    line = JSON.stringify({ leg: entry.leg, item: entry.item, threw: `tap: result not JSON: ${String(err)}` });
  }
  appendFileSync(logFile!, `${line}\n`);
}

const declaration: TapDeclaration = {
  declared: { delegates: [...(inner.delegates ?? [])], wireExceptions: [...(inner.wireExceptions ?? [])] },
};
appendFileSync(logFile, `${JSON.stringify(declaration)}\n`);

async function tapped<T>(leg: TapEntry["leg"], item: string, call: () => Promise<T>): Promise<T> {
  try {
    const result = await call();
    log({ leg, item, result });
    return result;
  } catch (err) {
    log({ leg, item, threw: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    throw err;
  }
}

const adapter: Adapter = {
  name: inner.name,
  get libVersion() {
    return inner.libVersion;
  },
  ...(inner.delegates ? { delegates: inner.delegates } : {}),
  ...(inner.wireExceptions ? { wireExceptions: inner.wireExceptions } : {}),
  async build(arena, config, ctx) {
    const runner = await inner.build(arena, config, ctx);
    const wrapped: Runner = { run: (item) => tapped("run", item.id, () => runner.run(item)) };
    if (typeof runner.resume === "function") {
      wrapped.resume = (item, state, decision) => tapped("resume", item.id, () => runner.resume!(item, state, decision));
    }
    return wrapped;
  },
};
export default adapter;
