/**
 * The throughput section: the gateway, in this process so its CPU time can be read, and then the
 * floor at each concurrency level, so every gateway row has a floor row measured right after it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createGateway } from "../../orchestrator/gateway/index.ts";
import { startFloor } from "./floor.ts";
import { runLoad, type LoadResult, type LoadTiming } from "./load.ts";
import { startWitnessing } from "./witnessing.ts";
import { throughputReport } from "./report.ts";
import { ARENA_TOOLS, expectedPromptTokens, type ToolUseRequest } from "./tool-use-request.ts";

export interface ThroughputOptions extends LoadTiming {
  levels: number[];
  floor: boolean;
  /** Also measure each level with the witness judging every served request on the gateway's thread. */
  witness: boolean;
}

/** Measures every level; returns the report. */
export async function throughput(request: ToolUseRequest, options: ThroughputOptions): Promise<string> {
  const { arena, body } = request;
  const gateway = createGateway({ script: arena.script, arenaTools: ARENA_TOOLS });
  const { baseUrl } = await gateway.start();
  const url = `${baseUrl}/chat/completions`;

  // Sanity: a scripted tool call, billed as messages + tools.
  const probe = await (await fetch(url, { method: "POST", body })).text();
  const promptTokens = expectedPromptTokens(request);
  if (!probe.includes('"finish_reason": "tool_calls"') || !probe.includes(`"prompt_tokens": ${promptTokens},`)) {
    throw new Error(`unexpected reply ${probe}`);
  }

  // Records of a benchmark are not needed and would grow by tens of thousands of bodies a second;
  // the witnessed rows judge them instead (and clear them as they go).
  let clearer: NodeJS.Timeout | undefined = setInterval(() => gateway.recorder.clear(), 500);
  const witnessed: string[] = [];

  const dir = mkdtempSync(path.join(tmpdir(), "gateway-bench-"));
  const bodyFile = path.join(dir, "body.json");
  writeFileSync(bodyFile, body);

  const rows: [string, LoadResult][] = [];
  const floor = options.floor ? await startFloor(probe) : undefined;
  try {
    for (const c of options.levels) {
      rows.push(["gateway", await runLoad(url, c, () => gateway.recorder.lifetimeAttempts, bodyFile, options)]);
      if (options.witness) {
        clearInterval(clearer);
        const witnessing = startWitnessing(gateway, arena);
        rows.push(["gateway + witness", await runLoad(url, c, () => gateway.recorder.lifetimeAttempts, bodyFile, options)]);
        const { judged, violations } = witnessing.stop();
        witnessed.push(`${c} client(s): ${judged} requests judged, ${violations} violation(s)`);
        clearer = setInterval(() => gateway.recorder.clear(), 500);
      }
      if (floor) rows.push(["node:http floor", await runLoad(floor.url, c, floor.served, bodyFile, options)]);
    }
  } finally {
    clearInterval(clearer);
    floor?.close();
    await gateway.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const { seconds, warmup } = options;
  const note = witnessed.length ? `\n"gateway + witness": every served request judged on the gateway's thread as it runs (${witnessed.join("; ")})\n` : "";
  return throughputReport({ bodyBytes: body.length, systemPromptChars: arena.systemPrompt.length, promptTokens, seconds, warmup }, rows) + note;
}
