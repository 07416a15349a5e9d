/**
 * The spill section: the same large requests against the default record budget and against none
 * (every body held, as before the budget existed), each in a fresh gateway process, so the RSS
 * figures show what the budget saves and the read-back shows that spilling loses nothing.
 */
import { fork } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_RECORD_BUDGET_BYTES } from "../../orchestrator/gateway/index.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../../orchestrator/gateway/options.ts";
import { MB, spillReport, type SpillRun } from "./report.ts";
import { sha, type FromGateway, type Mem, type SpillCommand } from "./spill-messages.ts";
import { bigBody, type ToolUseRequest } from "./tool-use-request.ts";

const SPILL_GATEWAY = path.join(path.dirname(fileURLToPath(import.meta.url)), "spill-gateway.ts");

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

/** Sends `requests` bodies of about `bodyMb` MB to each gateway process; returns the report. */
export async function spill(request: ToolUseRequest, { requests: n, bodyMb }: { requests: number; bodyMb: number }): Promise<string> {
  const { buf, at } = bigBody(request, bodyMb * 1e6);
  if (buf.length > DEFAULT_MAX_BODY_BYTES) throw new Error(`--body-mb: ${buf.length} bytes is over the gateway's ${DEFAULT_MAX_BODY_BYTES}-byte body limit`);
  const configs: [string, number][] = [
    [`default (${DEFAULT_RECORD_BUDGET_BYTES / MB} MiB)`, DEFAULT_RECORD_BUDGET_BYTES],
    ["none (every body held)", Number.MAX_SAFE_INTEGER],
  ];
  const runs: SpillRun[] = [];
  for (const [label, budget] of configs) {
    const child = fork(SPILL_GATEWAY, [String(budget)], { execArgv: ["--expose-gc"] });
    const next = <T extends FromGateway>(cmd?: SpillCommand): Promise<T> => {
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
      // A distinct body each time, so the read-back check would catch records swapped or lost.
      buf.write(String(i).padStart(6, "0"), at, "latin1");
      sent.push(sha(buf));
      await post(url, buf, agent);
      maxHeld = Math.max(maxHeld, (await next<{ held: number }>("held")).held);
    }
    const msPerRequest = (performance.now() - t0) / n;
    agent.destroy();
    const { mem: after } = await next<{ mem: Mem }>("mem");
    const v = await next<{ hashes: string[]; readMs: number; mem: Mem }>("verify");
    const allReadBackEqual = v.hashes.length === n && v.hashes.every((h, i) => h === sent[i]);
    const { left } = await next<{ left: string[] }>("stop");
    runs.push({ label, before, after, maxHeldBytes: maxHeld, msPerRequest, allReadBackEqual, readBackMs: v.readMs, rssAfterReadBack: v.mem.rss, spillFilesLeft: left.length });
  }
  return spillReport(n, buf.length, runs);
}
