/**
 * One leg of a durable_state item in its own OS process, for the langgraph restart test: the
 * only things shared with the other leg's process are a JSON file and the checkpoint directory.
 * Each process starts its own mock gateway on the arena's script (the gateway is stateless).
 *
 *   node langgraph-leg-child.ts run    <arenaDir> <corpus> <itemId> <checkpointDir> <stateFile>
 *   node langgraph-leg-child.ts resume <arenaDir> <corpus> <itemId> <checkpointDir> <stateFile>
 *
 * Prints one JSON line: the leg's result plus the checkpoint directory's files and sizes.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { createGateway } from "../../orchestrator/gateway/index.ts";
import adapter from "../../workers/adapters/langgraph/index.ts";
import type { Json } from "../../contract/protocol.ts";
import { dispatch } from "../../contract/tools/dispatch.ts";
import { namesFor } from "../../contract/tools/registry.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { disableTelemetry } from "../../contract/telemetry.ts";

disableTelemetry(process.env);
const [mode, arenaDir, corpusPath, itemId, checkpointDir, stateFile] = process.argv.slice(2) as [
  "run" | "resume",
  string,
  string,
  string,
  string,
  string,
];
const arena = loadArena(arenaDir);
const item = arena.items.find((i) => i.id === itemId)!;
const gateway = createGateway({ script: arena.script, arenaTools: namesFor(arena.declaredTools) });
const { baseUrl } = await gateway.start();
const corpus = loadCorpus(corpusPath);
const runner = await adapter.build(
  { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: arena.durable },
  {
    model: "mock-model",
    baseUrl,
    apiKey: "mock-key",
    temperature: 0,
    requestTimeoutS: 30,
    maxToolIterations: 8,
  },
  { tools: { dispatch: (name, args) => dispatch(name, args, { corpus }) } },
);
const work = { id: item.id, input: item.input, resume_with: item.resume_with, checkpointDir };
const result =
  mode === "run"
    ? await runner.run(work)
    : await runner.resume!(work, JSON.parse(readFileSync(stateFile, "utf8")) as Json, "approve");
if (mode === "run") writeFileSync(stateFile, JSON.stringify(result.resume_state ?? null));
const files = Object.fromEntries(readdirSync(checkpointDir).map((f) => [f, statSync(path.join(checkpointDir, f)).size]));
await gateway.stop();
process.stdout.write(
  `${JSON.stringify({
    result,
    served: gateway.recorder.records("").servedUsage,
    stateBytes: mode === "run" ? Buffer.byteLength(JSON.stringify(result.resume_state ?? null)) : 0,
    files,
  })}\n`,
);
