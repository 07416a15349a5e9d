/**
 * The floor of scripts/live-scale.ts: what the same run costs with nothing of ours in it. A bare
 * HTTP server holds every reply `--hold` seconds; `--inflight` slots take the items in the order
 * given, each making its item's LLM calls one after another from a fresh `node` process, with
 * the client the adapter's runtime has (`--client http`: node:http with a keep-alive agent, as the
 * baseline, its agent as support/measure.ts's HTTP_CLIENT makes it; `fetch`: fetch's, as every
 * framework SDK). With `--items-per-worker k` > 1, slots share processes as the run's seats do: k
 * slots to a process, every process started at once (the run starts its workers as items arrive),
 * and an item handed over the IPC channel. With 1, each item gets a process of its own, as a worker
 * per item would. Reads the items' call counts as JSON on stdin; prints `{ wall }`.
 */
import http from "node:http";
import { spawn, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { text } from "node:stream/consumers";
import { HTTP_CLIENT } from "../support/measure.ts";

const { values } = parseArgs({
  options: {
    inflight: { type: "string", default: "64" },
    hold: { type: "string", default: "0.5" },
    "items-per-worker": { type: "string", default: "1" },
    client: { type: "string", default: "fetch" },
  },
});
const holdMs = Number(values.hold) * 1000;
const inflight = Number(values.inflight);
const perWorker = Number(values["items-per-worker"]);
const calls = JSON.parse(await text(process.stdin)) as number[];

const reply = JSON.stringify({ choices: [{ message: { role: "assistant", content: "ok" } }], usage: { prompt_tokens: 1, completion_tokens: 1 } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => setTimeout(() => res.end(reply), holdMs));
});
// Past Node's 5 s default: on a loaded machine a client's next call can come later than that, and
// a socket the server closes as the client reuses it fails the call ("other side closed").
server.keepAliveTimeout = 120_000;
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const port = (server.address() as { port: number }).port;

const URL_ = `http://127.0.0.1:${port}/`;
/** One call and its whole reply, with each client; node:http's agent is made once per process. */
const CALL = {
  fetch: `{ const r = await fetch(${JSON.stringify(URL_)}, { method: "POST", body: "{}" }); await r.text(); }`,
  http: `await new Promise((resolve, reject) => { const req = process.getBuiltinModule("node:http").request(${JSON.stringify(URL_)}, { method: "POST", agent: (globalThis.__agent ??= ${HTTP_CLIENT}) }, (res) => { res.resume(); res.on("end", resolve); }); req.on("error", reject); req.end("{}"); });`,
}[values.client!];
if (CALL === undefined) throw new Error(`--client must be http or fetch, got ${values.client}`);
const itemCode = (n: string) => `for (let i = 0; i < ${n}; i++) ${CALL}`;
/** A process that runs each item it is sent (its call count, with the slot that sent it) and answers with the slot. */
const seatedCode = `process.on("message", async ({ slot, n }) => { ${itemCode("n")} process.send(slot); });`;

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`floor client exited ${code}`))));
  });
}

const t0 = performance.now();
let next = 0;
if (perWorker <= 1) {
  const one = (n: number) => exited(spawn(process.execPath, ["--input-type=module", "-e", itemCode(String(n))], { stdio: "ignore" }));
  await Promise.all(Array.from({ length: inflight }, async () => {
    while (next < calls.length) await one(calls[next++]!);
  }));
} else {
  const processes = Array.from({ length: Math.ceil(inflight / perWorker) }, () => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", seatedCode], { stdio: ["ignore", "ignore", "inherit", "ipc"], serialization: "json" });
    const waiting = new Map<number, () => void>();
    child.on("message", (slot: number) => waiting.get(slot)?.());
    return { child, waiting };
  });
  await Promise.all(Array.from({ length: inflight }, async (_, slot) => {
    const p = processes[Math.floor(slot / perWorker)]!;
    while (next < calls.length) {
      const n = calls[next++]!;
      await new Promise<void>((resolve) => {
        p.waiting.set(slot, resolve);
        p.child.send({ slot, n });
      });
    }
  }));
  await Promise.all(processes.map((p) => (p.child.disconnect(), exited(p.child))));
}
const wall = (performance.now() - t0) / 1000;
server.close();
process.stdout.write(`${JSON.stringify({ wall })}\n`);
