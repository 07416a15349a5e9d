/**
 * Runs one level of load against a server through the load client (load-client.ts, a separate
 * process so the client does not share the gateway's event loop) and adds what only the server's
 * process can see: its CPU time over the level. The server must run in this process for that.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const LOAD_CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), "load-client.ts");

export interface LoadResult {
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

export interface LoadTiming {
  warmup: number;
  seconds: number;
}

/** `replies` counts what the server has answered so far, for CPU per reply. */
export async function runLoad(target: string, concurrency: number, replies: () => number, bodyFile: string, { warmup, seconds }: LoadTiming): Promise<LoadResult> {
  const args = [LOAD_CLIENT, target, String(concurrency), String(warmup), String(seconds), bodyFile];
  const replies0 = replies();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const load = await new Promise<Omit<LoadResult, "cpuPerReplyUs" | "cpuShare">>((resolve, reject) => {
    execFile(process.execPath, args, { timeout: (warmup + seconds + 30) * 1000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`load client failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as LoadResult);
    });
  });
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = cpu.user + cpu.system;
  return { ...load, cpuPerReplyUs: cpuUs / (replies() - replies0), cpuShare: cpuUs / 1000 / (performance.now() - t0) };
}
