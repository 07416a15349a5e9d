/**
 * The benchmark's output: Markdown tables in the form docs/performance.md quotes them, so a run's
 * output can be pasted there as it is.
 */
import { availableParallelism, cpus } from "node:os";
import type { LoadResult } from "./load.ts";
import type { Mem } from "./spill-messages.ts";

export const MB = 1024 * 1024;

export interface ThroughputSetup {
  bodyBytes: number;
  systemPromptChars: number;
  promptTokens: number;
  seconds: number;
  warmup: number;
}

/** `rows`: the server measured ("gateway" or the floor) and its result, in the order measured. */
export function throughputReport(setup: ThroughputSetup, rows: [string, LoadResult][]): string {
  const f = (n: number, d = 2) => n.toFixed(d);
  const lines = rows.map(
    ([server, r]) =>
      `| ${server} | ${r.concurrency} | ${f(r.rps, 0)} | ${f(r.p50, 3)} | ${f(r.p90, 3)} | ${f(r.p99, 3)} | ${f(r.max, 1)} | ${r.count} | ${f(r.cpuPerReplyUs, 1)} | ${f(r.cpuShare * 100, 0)} % |\n`,
  );
  return (
    `node ${process.version}, ${availableParallelism()} CPU(s) (${cpus()[0]?.model ?? "?"}); request body ${setup.bodyBytes} bytes ` +
    `(system prompt ${setup.systemPromptChars} chars, prompt ${setup.promptTokens} tokens); ${setup.seconds} s per level after ${setup.warmup} s warm-up\n\n` +
    "| server | concurrent clients | replies/s | p50 ms | p90 ms | p99 ms | max ms | replies | server CPU µs/reply | server CPU (1 core) |\n" +
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n" +
    lines.join("")
  );
}

/** One record budget's run of the spill section, as the gateway process reported it. */
export interface SpillRun {
  label: string;
  before: Mem;
  after: Mem;
  maxHeldBytes: number;
  msPerRequest: number;
  allReadBackEqual: boolean;
  readBackMs: number;
  rssAfterReadBack: number;
  spillFilesLeft: number;
}

export function spillReport(requests: number, bodyBytes: number, runs: SpillRun[]): string {
  const f = (bytes: number) => (bytes / MB).toFixed(0);
  const lines = runs.map(({ label, before, after, ...r }) => {
    const rec = after.recorder;
    return `| ${label} | ${f(before.rss)} | **${f(after.rss)}** | ${f(after.heapUsed)} / ${f(after.heapTotal)} / ${f(after.external)} | ${f(r.maxHeldBytes)} | ${rec.spilledRecords} / ${f(rec.spilledBytes)} | ${r.msPerRequest.toFixed(0)} | ${r.allReadBackEqual ? "yes" : "**NO**"}, ${(r.readBackMs / 1000).toFixed(1)} s | ${f(r.rssAfterReadBack)} | ${r.spillFilesLeft} |`;
  });
  return (
    `\nspill: ${requests} requests of ${(bodyBytes / 1e6).toFixed(2)} MB (a tool_use transcript), sequential, one keep-alive connection; gateway in a child process; MB = MiB, RSS after a full GC\n\n` +
    "| record budget | RSS before | RSS after | heap used / total / external after | held (max) | spilled records / MB | ms per request | all read back equal, time | RSS after reading back | spill files left after stop |\n" +
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n" +
    lines.join("\n") +
    "\n"
  );
}
