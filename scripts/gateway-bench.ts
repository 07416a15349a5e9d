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
 * The "spill" section (after it, or alone with --section spill) sends --requests bodies of
 * --body-mb MB each to a gateway in a child process, once with the default record budget and once
 * with none (every body held, as before the budget existed), and prints the gateway process's RSS
 * before and after, what the recorder holds and spilled, and whether every record reads back equal.
 *
 * The "witness" section (scripts/witness-cost.ts) times the witness's rules per recorded request.
 *
 * Usage: node scripts/gateway-bench.ts [--section all|throughput|spill|witness] [--seconds N] [--warmup N]
 *        [--levels 1,8,32] [--no-floor] [--requests 80] [--body-mb 7.5]
 */
import { execFile, fork } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadArena } from "../orchestrator/arena/load.ts";
import { createGateway, DEFAULT_RECORD_BUDGET_BYTES, type RecorderMemory } from "../orchestrator/gateway/index.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../orchestrator/gateway/options.ts";
import { dumpsPy, fromJs, parsePyJson, type PyValue } from "@agentic-arena/py-semantics";
import { specsFor } from "../contract/tools/registry.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    levels: { type: "string", default: "1,8,32" },
    "no-floor": { type: "boolean", default: false },
    section: { type: "string", default: "all" },
    requests: { type: "string", default: "80" },
    "body-mb": { type: "string", default: "7.5" },
    /** Internal: run as the spill section's gateway process with this record budget. */
    "spill-gateway": { type: "string" },
  },
});
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const levels = values.levels.split(",").map(Number);
const noFloor = values["no-floor"];
const section = values.section;
if (!["all", "throughput", "spill", "witness"].includes(section)) throw new Error(`--section must be all, throughput, spill or witness, got ${section}`);

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

async function runLoad(target: string, concurrency: number, replies: () => number, bodyFile: string): Promise<Result> {
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

/** The throughput section: gateway and floor at each concurrency level, one table. */
async function throughput(): Promise<void> {
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

  const rows: [string, Result][] = [];
  const floor = noFloor ? undefined : await startFloor(probe);
  try {
    for (const c of levels) {
      rows.push(["gateway", await runLoad(url, c, () => gateway.recorder.lifetimeAttempts, bodyFile)]);
      if (floor) rows.push(["node:http floor", await runLoad(floor.url, c, floor.served, bodyFile)]);
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
}

// --- spill section ----------------------------------------------------------------------------

interface Mem {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  recorder: RecorderMemory;
}
type FromGateway = { url: string; mem: Mem } | { mem: Mem } | { held: number } | { hashes: string[]; readMs: number; mem: Mem } | { left: string[] };

const MB = 1024 * 1024;
const sha = (b: string | Buffer): string => createHash("sha256").update(b).digest("hex");

/** The gateway process of the spill section: answers "held", "mem", "verify" and "stop" over IPC. */
async function spillGateway(budget: number): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "gateway-spill-bench-"));
  const gateway = createGateway({ script: arena.script, arenaTools: ["search", "calculator"], recordBudgetBytes: budget, spillDir: dir });
  const { baseUrl } = await gateway.start();
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  // After a full collection, so the figure is what is held rather than what is garbage.
  const mem = (): Mem => (gc(), gc(), { ...process.memoryUsage(), recorder: gateway.recorder.memory });
  const reply = (m: FromGateway) => process.send?.(m);
  reply({ url: `${baseUrl}/chat/completions`, mem: mem() });
  process.on("message", (cmd: string) => {
    if (cmd === "held") reply({ held: gateway.recorder.memory.heldBytes });
    else if (cmd === "mem") reply({ mem: mem() });
    else if (cmd === "verify") {
      const t0 = performance.now();
      const hashes = gateway.recorder.records().requests.map((r) => sha(dumpsPy(r.body)));
      reply({ hashes, readMs: performance.now() - t0, mem: mem() });
    } else if (cmd === "stop") {
      void gateway.stop().then(() => {
        reply({ left: readdirSync(dir) });
        rmSync(dir, { recursive: true, force: true });
        process.disconnect();
      });
    }
  });
}

/** A canonical (Python json.dumps) tool_use transcript of about `bytes` bytes; `at` is where 6 index digits go. */
function bigBody(bytes: number): { buf: Buffer; at: number } {
  const msg = (kv: [string, PyValue][]) => new Map<string, PyValue>(kv);
  const messages: PyValue[] = [msg([["role", "system"], ["content", arena.systemPrompt]]), msg([["role", "user"], ["content", `${question} [run 000000]`]])];
  const observation = "The search returned a long passage about arithmetic and towers. ".repeat(55);
  for (let i = 0, size = 0; size < bytes - 8000; i++) {
    const call = msg([["id", `call_${String(i).padStart(8, "0")}`], ["type", "function"], ["function", msg([["name", "search"], ["arguments", `{"query": "step ${i}"}`]])]]);
    messages.push(msg([["role", "assistant"], ["content", null], ["tool_calls", [call]]]), msg([["role", "tool"], ["tool_call_id", `call_${String(i).padStart(8, "0")}`], ["content", observation]]));
    size += observation.length + 250;
  }
  const buf = Buffer.from(dumpsPy(msg([["model", "mock-model"], ["messages", messages], ["tools", tools]])));
  return { buf, at: buf.indexOf("[run 000000]") + 5 };
}

function post(url: string, body: Buffer, agent: http.Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { "Content-Type": "application/json", "Content-Length": body.length } }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The spill section: the same requests against the default budget and against none, each in a fresh gateway process. */
async function spill(): Promise<void> {
  const n = Number(values.requests);
  const { buf, at } = bigBody(Number(values["body-mb"]) * 1e6);
  if (buf.length > DEFAULT_MAX_BODY_BYTES) throw new Error(`--body-mb: ${buf.length} bytes is over the gateway's ${DEFAULT_MAX_BODY_BYTES}-byte body limit`);
  const configs: [string, number][] = [
    [`default (${DEFAULT_RECORD_BUDGET_BYTES / MB} MiB)`, DEFAULT_RECORD_BUDGET_BYTES],
    ["none (every body held)", Number.MAX_SAFE_INTEGER],
  ];
  const f = (bytes: number) => (bytes / MB).toFixed(0);
  const lines: string[] = [];
  for (const [label, budget] of configs) {
    const child = fork(fileURLToPath(import.meta.url), ["--spill-gateway", String(budget)], { execArgv: ["--expose-gc"] });
    const next = <T extends FromGateway>(cmd?: string): Promise<T> => {
      const answer = new Promise<T>((resolve) => child.once("message", (m) => resolve(m as T)));
      if (cmd !== undefined) child.send(cmd);
      return answer;
    };
    const { url, mem: before } = await next<{ url: string; mem: Mem }>();
    const agent = new http.Agent({ keepAlive: true });
    const sent: string[] = [];
    let maxHeld = 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      buf.write(String(i).padStart(6, "0"), at, "latin1");
      sent.push(sha(buf));
      await post(url, buf, agent);
      maxHeld = Math.max(maxHeld, (await next<{ held: number }>("held")).held);
    }
    const perRequest = (performance.now() - t0) / n;
    agent.destroy();
    const { mem: after } = await next<{ mem: Mem }>("mem");
    const v = await next<{ hashes: string[]; readMs: number; mem: Mem }>("verify");
    const equal = v.hashes.length === n && v.hashes.every((h, i) => h === sent[i]);
    const { left } = await next<{ left: string[] }>("stop");
    const r = after.recorder;
    lines.push(
      `| ${label} | ${f(before.rss)} | **${f(after.rss)}** | ${f(after.heapUsed)} / ${f(after.heapTotal)} / ${f(after.external)} | ${f(maxHeld)} | ${r.spilledRecords} / ${f(r.spilledBytes)} | ${perRequest.toFixed(0)} | ${equal ? "yes" : "**NO**"}, ${(v.readMs / 1000).toFixed(1)} s | ${f(v.mem.rss)} | ${left.length} |`,
    );
  }
  process.stdout.write(
    `\nspill: ${n} requests of ${(buf.length / 1e6).toFixed(2)} MB (a tool_use transcript), sequential, one keep-alive connection; gateway in a child process; MB = MiB, RSS after a full GC\n\n` +
      "| record budget | RSS before | RSS after | heap used / total / external after | held (max) | spilled records / MB | ms per request | all read back equal, time | RSS after reading back | spill files left after stop |\n" +
      "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n" +
      lines.join("\n") +
      "\n",
  );
}

if (values["spill-gateway"] !== undefined) await spillGateway(Number(values["spill-gateway"]));
else {
  if (section === "all" || section === "throughput") await throughput();
  if (section === "all" || section === "spill") await spill();
  // Checking must keep up with the gateway: the witness's cost per request, beside the reply time above.
  if (section === "all" || section === "witness") process.stdout.write(`\n${await (await import("./witness-cost.ts")).witnessCost(20)}`);
}
