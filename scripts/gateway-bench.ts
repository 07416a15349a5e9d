/**
 * Gateway throughput and latency (docs/performance.md, "Gateway"). Not a test: numbers depend on
 * the machine and on whatever else it is doing.
 *
 * The gateway runs in this process on the tool_use script; the load comes from a second process
 * (scripts/gateway-load.ts) over keep-alive loopback connections, at 1, 8 and 32 concurrent
 * clients. Every request is a realistic tool_use turn-0 request (arena system prompt, user
 * question, the two canonical tool specs) and is answered with the scripted calculator call, so
 * each reply runs the full path: parse, select, bill (Python json.dumps of messages + tools),
 * render, record.
 *
 * After each gateway level the same load runs against a bare node:http server sending the same
 * reply bytes (the "floor"), so the figures can be read against what loopback HTTP costs on the
 * machine at that moment.
 *
 * Usage: node scripts/gateway-bench.ts [--seconds N] [--warmup N] [--levels 1,8,32] [--no-floor]
 */
import { execFile } from "node:child_process";
import http from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadArena } from "../orchestrator/arena/load.ts";
import { createGateway } from "../orchestrator/gateway/index.ts";
import { dumpsPy, fromJs, parsePyJson, type PyValue } from "../workers/py/index.ts";
import { specsFor } from "../workers/tools/registry.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    levels: { type: "string", default: "1,8,32" },
    "no-floor": { type: "boolean", default: false },
  },
});
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const levels = values.levels.split(",").map(Number);
const noFloor = values["no-floor"];

const arena = loadArena(path.join(here, "../arenas/tool_use"));
const question = arena.items[0]?.input ?? "";
// The canonical specs (tools.md §1) as the baseline sends them.
const tools = fromJs(specsFor(["search", "calculator"]));
const body = dumpsPy(
  new Map([
    ["model", "mock-model"],
    [
      "messages",
      [
        new Map([
          ["role", "system"],
          ["content", arena.systemPrompt],
        ]),
        new Map([
          ["role", "user"],
          ["content", question],
        ]),
      ],
    ],
    ["temperature", 0.0],
    ["stream", false],
    ["tools", tools],
    ["tool_choice", "auto"],
  ]),
);

const gateway = createGateway({ script: arena.script, arenaTools: ["search", "calculator"] });
const { baseUrl } = await gateway.start();
const url = `${baseUrl}/chat/completions`;

// Sanity: a scripted tool call, billed as messages + tools.
const probe = await (await fetch(url, { method: "POST", body })).text();
const messagesChars = dumpsPy((parsePyJson(body) as Map<string, PyValue>).get("messages") as PyValue).length;
const expectedPrompt = Math.floor((messagesChars + dumpsPy(tools).length) / 4);
if (!probe.includes('"finish_reason": "tool_calls"') || !probe.includes(`"prompt_tokens": ${expectedPrompt},`)) {
  throw new Error(`unexpected reply ${probe}`);
}

// Records of a benchmark are not needed and would grow by tens of thousands of bodies a second.
const clearer = setInterval(() => gateway.recorder.clear(), 500);

const dir = mkdtempSync(path.join(tmpdir(), "gateway-bench-"));
const bodyFile = path.join(dir, "body.json");
writeFileSync(bodyFile, body);

interface Result {
  concurrency: number;
  count: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Gateway-process CPU time per reply (user + system), over the whole run of this level. */
  cpuPerReplyUs: number;
  /** Gateway-process CPU use as a share of one core over this level's run. */
  cpuShare: number;
}

async function runLoad(target: string, concurrency: number, replies: () => number): Promise<Result> {
  const args = [path.join(here, "gateway-load.ts"), target, String(concurrency), String(warmup), String(seconds), bodyFile];
  const replies0 = replies();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const load = await new Promise<Omit<Result, "cpuPerReplyUs" | "cpuShare">>((resolve, reject) => {
    execFile(process.execPath, args, { timeout: (warmup + seconds + 30) * 1000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`load client failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Result);
    });
  });
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = cpu.user + cpu.system;
  return { ...load, cpuPerReplyUs: cpuUs / (replies() - replies0), cpuShare: cpuUs / 1000 / (performance.now() - t0) };
}

/**
 * The floor: a bare node:http server that reads the body and sends the gateway's reply bytes
 * unchanged. Measured right after the gateway, it shows what loopback HTTP itself costs on this
 * machine at that moment (a shared 2-core VM varies by tens of percent from minute to minute).
 */
async function startFloor(reply: string): Promise<{ url: string; served: () => number; close: () => void }> {
  let served = 0;
  const server = http.createServer({ noDelay: true, keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      served++;
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(reply) });
      res.end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    served: () => served,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

const rows: [string, Result][] = [];
const floor = noFloor ? undefined : await startFloor(probe);
try {
  for (const c of levels) {
    rows.push(["gateway", await runLoad(url, c, () => gateway.recorder.lifetimeAttempts)]);
    if (floor) rows.push(["node:http floor", await runLoad(floor.url, c, floor.served)]);
  }
} finally {
  clearInterval(clearer);
  floor?.close();
  await gateway.stop();
  rmSync(dir, { recursive: true, force: true });
}

const f = (n: number, d = 2) => n.toFixed(d);
process.stdout.write(
  `node ${process.version}, ${availableParallelism()} CPU(s) (${cpus()[0]?.model ?? "?"}); request body ${body.length} bytes ` +
    `(system prompt ${arena.systemPrompt.length} chars, prompt ${expectedPrompt} tokens); ${seconds} s per level after ${warmup} s warm-up\n\n`,
);
process.stdout.write(
  "| server | concurrent clients | replies/s | p50 ms | p90 ms | p99 ms | max ms | replies | server CPU µs/reply | server CPU (1 core) |\n" +
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
);
for (const [server, r] of rows) {
  process.stdout.write(
    `| ${server} | ${r.concurrency} | ${f(r.rps, 0)} | ${f(r.p50, 3)} | ${f(r.p90, 3)} | ${f(r.p99, 3)} | ${f(r.max, 1)} | ${r.count} | ${f(r.cpuPerReplyUs, 1)} | ${f(r.cpuShare * 100, 0)} % |\n`,
  );
}
