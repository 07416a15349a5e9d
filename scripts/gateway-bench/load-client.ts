/**
 * Load client for scripts/gateway-bench.ts, run as a separate process so the gateway's event loop
 * is not shared with the client's. `concurrency` loops each keep one request in flight over a
 * keep-alive connection; prints one JSON line: count, seconds, replies/s, latency percentiles (ms).
 *
 * Usage: node scripts/gateway-bench/load-client.ts <url> <concurrency> <warmupSeconds> <seconds> <bodyFile>
 */
import http from "node:http";
import { readFileSync } from "node:fs";

const [url, concurrencyArg, warmupArg, secondsArg, bodyFile] = process.argv.slice(2);
if (url === undefined || bodyFile === undefined) {
  process.stderr.write("usage: load-client.ts <url> <concurrency> <warmupSeconds> <seconds> <bodyFile>\n");
  process.exit(2);
}
const concurrency = Number(concurrencyArg);
const warmupMs = Number(warmupArg) * 1000;
const measureMs = Number(secondsArg) * 1000;
const body = readFileSync(bodyFile);
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const headers = { "Content-Type": "application/json", "Content-Length": body.length, Authorization: "Bearer mock-key" };

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", agent, headers },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`));
        res.on("data", () => {});
        res.on("end", () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const start = performance.now();
const measureFrom = start + warmupMs;
const stopAt = measureFrom + measureMs;
const latencies: number[] = [];

async function loop(): Promise<void> {
  for (;;) {
    const began = performance.now();
    if (began >= stopAt) return;
    const ms = await once();
    if (began >= measureFrom) latencies.push(ms);
  }
}

await Promise.all(Array.from({ length: concurrency }, loop));
// Requests that began inside the window may end a little after it; count the window that held them.
const seconds = (Math.max(performance.now(), stopAt) - measureFrom) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN;
process.stdout.write(
  `${JSON.stringify({ concurrency, count: latencies.length, seconds, rps: latencies.length / seconds, p50: pct(50), p90: pct(90), p99: pct(99), max: latencies.at(-1) ?? Number.NaN })}\n`,
);
agent.destroy();
