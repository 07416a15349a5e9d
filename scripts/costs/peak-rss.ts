/**
 * Peak resident memory of this process's worker descendants, sampled from /proc (Linux only).
 * Every `intervalMs` it walks the process tree below `rootPid`, keeps the processes whose command
 * line names the Node host (`workers/host.ts`, or a bundle of it under `arena-worker/`:
 * orchestrator/supervisor/worker-entry.ts) (inside bubblewrap that node process is a child of `bwrap`, whose
 * own command line names the host too: bwrap itself is left out by its `comm`), and reads each
 * one's VmHWM (the kernel's peak RSS of that process so far). The maximum over every sample is
 * kept. A worker that lives shorter than the interval can be missed; one that dies between two
 * samples loses only what it grew after the last one. The sampling runs on its own thread, so the
 * run's work on the main event loop does not hold it up (the machine's load still can: the report
 * says the longest gap between two samples).
 */
import { readdirSync, readFileSync } from "node:fs";
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

function read(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // gone since the listing
  }
}

/** pid → ppid for every process visible now. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    out.set(Number(name), ppid);
  }
  return out;
}

/** What a Node worker's command line contains: the host's sources, or its bundle's folder. */
export const NODE_HOST_MARKS = ["workers/host.ts", "/arena-worker/"] as const;

/** Descendants of `root` whose command line contains one of `match`, bwrap excluded. */
export function workerPids(root: number, match: string | readonly string[]): number[] {
  const marks = typeof match === "string" ? [match] : match;
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    queue.push(...(children.get(pid) ?? []));
    const cmdline = read(`/proc/${pid}/cmdline`);
    const comm = read(`/proc/${pid}/comm`)?.trim();
    if (marks.some((m) => cmdline?.includes(m)) && comm !== "bwrap") out.push(pid);
  }
  return out;
}

/** VmHWM of a live process, in bytes; undefined if it has gone. */
export function peakRssOf(pid: number): number | undefined {
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(read(`/proc/${pid}/status`) ?? "")?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}

export interface PeakReport {
  readonly peakBytes: number;
  /** Distinct worker processes seen. */
  readonly processes: number;
  readonly samples: number;
  /** The longest time between two samples (the event loop is shared with the run). */
  readonly maxGapMs: number;
}

interface SamplerOptions {
  readonly root: number;
  readonly match: string | readonly string[];
  readonly intervalMs: number;
}

/** The sampling loop, on the sampler's thread: answers "stop" with its PeakReport. */
function sampleLoop(options: SamplerOptions): void {
  let peak = 0;
  let samples = 0;
  let maxGap = 0;
  let last = performance.now();
  const seen = new Set<number>();
  const sample = () => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    samples += 1;
    for (const pid of workerPids(options.root, options.match)) {
      const hwm = peakRssOf(pid);
      if (hwm === undefined) continue;
      seen.add(pid);
      peak = Math.max(peak, hwm);
    }
  };
  const timer = setInterval(sample, options.intervalMs);
  parentPort!.once("message", () => {
    clearInterval(timer);
    sample();
    const report: PeakReport = { peakBytes: peak, processes: seen.size, samples, maxGapMs: maxGap };
    parentPort!.postMessage(report);
  });
}

if (!isMainThread && (workerData as { peakRss?: SamplerOptions } | undefined)?.peakRss) {
  sampleLoop((workerData as { peakRss: SamplerOptions }).peakRss);
}

/** Samples on a worker thread from `start()` until `stop()`. */
export class PeakRssSampler {
  readonly #options: SamplerOptions;
  #thread: Worker | undefined;

  constructor(options: Partial<SamplerOptions> = {}) {
    this.#options = { root: options.root ?? process.pid, match: options.match ?? NODE_HOST_MARKS, intervalMs: options.intervalMs ?? 100 };
  }

  async start(): Promise<void> {
    this.#thread = new Worker(new URL(import.meta.url), { workerData: { peakRss: this.#options } });
    await once(this.#thread, "online");
  }

  async stop(): Promise<PeakReport> {
    const thread = this.#thread!;
    const answer = once(thread, "message");
    thread.postMessage("stop");
    const [report] = (await answer) as [PeakReport];
    await thread.terminate();
    return report;
  }
}
