/**
 * One leg of a durable_state item in its own OS process, for the restart tests across two OS
 * processes: the only things shared with the other leg's process are a JSON file and the
 * checkpoint directory. Each process starts its own mock gateway on the arena's script (the
 * gateway is stateless). Every socket the process opens and every DNS lookup it makes are
 * recorded (telemetry off, nothing but the gateway may be reached). Some frameworks (ADK) log to
 * stdout, so the result is the last line.
 *
 *   node leg-child.ts <adapter> run|resume <arenaDir> <corpus> <itemId> <checkpointDir> <stateFile>
 *
 * Prints one JSON line: the leg's result, the served usage, the checkpoint files, the connections.
 */
import dns from "node:dns";
import net from "node:net";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Adapter } from "../../../contract/adapter.ts";

const connections: string[] = [];
const lookups: string[] = [];
// Every way a TCP connection is opened in Node ends in Socket#connect; read where it went once it did.
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (this: net.Socket, ...args: any[]) {
  this.once("connect", () => connections.push(`${this.remoteAddress}:${this.remotePort}`));
  return (connect as any).apply(this, args);
} as typeof connect;
const lookup = dns.lookup;
(dns as any).lookup = (host: string, ...rest: unknown[]) => {
  lookups.push(host);
  return (lookup as any)(host, ...rest);
};

// Imported only now, so that a module that keeps a reference to dns.lookup keeps the recording one.
const { loadArena } = await import("../../../orchestrator/arena/load.ts");
const { createGateway } = await import("../../../orchestrator/gateway/index.ts");
const { findAdapter } = await import("../../../contract/catalogue.ts");
const { dispatch } = await import("../../../contract/tools/dispatch.ts");
const { namesFor } = await import("../../../contract/tools/registry.ts");
const { loadCorpus } = await import("../../../contract/tools/search.ts");
const { disableTelemetry } = await import("../../../contract/telemetry.ts");

disableTelemetry(process.env);
const [name, mode, arenaDir, corpusPath, itemId, checkpointDir, stateFile] = process.argv.slice(2) as [string, string, string, string, string, string, string];
const adapter = ((await import(pathToFileURL(findAdapter(name)!.module).href)) as { default: Adapter }).default;
const arena = loadArena(arenaDir);
const item = arena.items.find((i) => i.id === itemId)!;
const gateway = createGateway({ script: arena.script, arenaTools: namesFor(arena.declaredTools) });
const { baseUrl } = await gateway.start();
const port = new URL(baseUrl).port;
const corpus = loadCorpus(corpusPath);
const runner = await adapter.build(
  { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: arena.durable },
  { model: "mock-model", baseUrl, apiKey: "mock-key", temperature: 0, requestTimeoutS: 30, maxToolIterations: 8 },
  { tools: { dispatch: (tool, args) => dispatch(tool, args, { corpus }) } },
);
const work = { id: item.id, input: item.input, resume_with: item.resume_with, checkpointDir };
const result = mode === "run" ? await runner.run(work) : await runner.resume!(work, JSON.parse(readFileSync(stateFile, "utf8")), "approve");
if (mode === "run") writeFileSync(stateFile, JSON.stringify(result.resume_state ?? null));
const files = Object.fromEntries(readdirSync(checkpointDir).map((f) => [f, statSync(path.join(checkpointDir, f)).size]));
await gateway.stop();
process.stdout.write(
  `${JSON.stringify({
    result,
    served: gateway.recorder.records("").servedUsage,
    stateBytes: mode === "run" ? Buffer.byteLength(JSON.stringify(result.resume_state ?? null)) : 0,
    files,
    port,
    connections,
    lookups,
  })}\n`,
);
