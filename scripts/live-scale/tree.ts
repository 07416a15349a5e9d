/**
 * Run one command inside fresh cgroup v1 `cpuacct` and `memory` groups (scripts/support/cgroup.ts)
 * and measure its whole process tree: CPU from cpuacct.usage, the kernel's peak charge from
 * memory.max_usage_in_bytes, and, sampled every 200 ms from /proc, the largest Σ VmRSS and Σ Pss of
 * every process in the group.
 */
import { readFileSync } from "node:fs";
import { execa } from "execa";
import { commandInGroups, cpuSecondsOf, makeGroup, removeGroup } from "../support/cgroup.ts";

const read = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return ""; // the process left between the listing and the read
  }
};

function field(text: string, name: string): number {
  const m = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text);
  return m ? Number(m[1]) * 1024 : 0;
}

export interface TreeMeasure {
  readonly stdout: string;
  readonly cpuSeconds: number;
  readonly peakCgroupBytes: number;
  readonly peakRssBytes: number;
  readonly peakPssBytes: number;
}

export async function measureTree(name: string, argv: readonly string[], input: string): Promise<TreeMeasure> {
  const tag = `arena-live-scale-${process.pid}-${name}`;
  const cpu = makeGroup("cpuacct", tag);
  const mem = makeGroup("memory", tag);
  let peakRss = 0;
  let peakPss = 0;
  const sample = () => {
    let rss = 0;
    let pss = 0;
    for (const pid of read(`${mem}/cgroup.procs`).split("\n").filter(Boolean)) {
      rss += field(read(`/proc/${pid}/status`), "VmRSS");
      pss += field(read(`/proc/${pid}/smaps_rollup`), "Pss");
    }
    peakRss = Math.max(peakRss, rss);
    peakPss = Math.max(peakPss, pss);
  };
  const timer = setInterval(sample, 200);
  try {
    const [shell, args] = commandInGroups([cpu, mem], argv);
    const child = await execa(shell, args, {
      input,
      stderr: "inherit",
    });
    return {
      stdout: child.stdout,
      cpuSeconds: cpuSecondsOf(cpu),
      peakCgroupBytes: Number(read(`${mem}/memory.max_usage_in_bytes`)),
      peakRssBytes: peakRss,
      peakPssBytes: peakPss,
    };
  } finally {
    clearInterval(timer);
    removeGroup(cpu);
    removeGroup(mem);
  }
}
