/**
 * `arena gateway --arena <id|dir> [--port N]`: the mock gateway on its own, for pointing a framework
 * at it by hand while writing an adapter. Prints the base URL (first line, alone, so scripts can read
 * it) and the records URL, then serves until SIGINT/SIGTERM.
 */
import { loadArena } from "../../arena/load.ts";
import { createGateway } from "../../gateway/index.ts";
import { namesFor } from "../../../contract/tools/registry.ts";
import { UsageError, type CommandContext, type FlagValue } from "../command.ts";
import { selectArenas } from "../common.ts";

function intFlag(v: FlagValue, name: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`--${name} must be an integer in ${min}..${max}, got ${String(v)}`);
  return n;
}

function faultsFlag(v: FlagValue): number[] {
  if (v === undefined) return [];
  return String(v)
    .split(",")
    .map((s) => intFlag(s.trim(), "faults", 100, 599) as number);
}

function secondsFlag(v: FlagValue, name: string): number {
  if (v === undefined) return 0;
  const n = Number(v);
  if (!(n >= 0 && Number.isFinite(n))) throw new UsageError(`--${name} must be a number of seconds >= 0, got ${String(v)}`);
  return n;
}

export async function run({ common, flags, io }: CommandContext): Promise<number> {
  if (common.arenas.length !== 1) throw new UsageError("give exactly one --arena");
  const [ref] = selectArenas(common, io.cwd);
  const arena = loadArena(ref!.dir, { cwd: io.cwd });
  const gateway = createGateway({
    script: arena.script,
    arenaTools: namesFor(arena.declaredTools),
    port: intFlag(flags["port"], "port", 0, 65535) ?? 0,
    faults: faultsFlag(flags["faults"]),
    retryAfter: intFlag(flags["retry-after"], "retry-after", 0, 86_400) ?? null,
    stallSeconds: secondsFlag(flags["stall"], "stall"),
    holdSeconds: secondsFlag(flags["hold"], "hold"),
  });
  let address;
  try {
    address = await gateway.start();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EADDRINUSE" && code !== "EACCES") throw err;
    io.stderr(`arena gateway: cannot listen on 127.0.0.1:${flags["port"] as string} (${code})\n`);
    return 1;
  }
  const { baseUrl, recordsUrl } = address;
  io.stdout(`${baseUrl}\n`);
  io.stdout(`arena ${arena.id}: mock gateway up; records at ${recordsUrl}; Ctrl-C to stop\n`);
  await new Promise<void>((resolve) => {
    const done = () => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await gateway.stop();
  const usage = gateway.recorder.servedUsage;
  io.stdout(`served ${usage.llm_calls} request(s): ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion tokens\n`);
  return 0;
}
