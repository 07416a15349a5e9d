/**
 * Run one command inside fresh cgroup v1 `cpuacct` and `memory` groups and measure its whole
 * process tree: CPU from cpuacct.usage, the kernel's peak charge from memory.max_usage_in_bytes,
 * and, sampled every 200 ms from /proc, the largest Σ VmRSS and Σ Pss of every process in the
 * group. The command joins the groups before it execs (a `sh` that writes its own pid first), so
 * nothing it starts, sealed or not, escapes them.
 */
import { mkdirSync, readFileSync, rmdirSync } from "node:fs";
import { execa } from "execa";

function groupPath(controller: string): string {
  const line = readFileSync("/proc/self/cgroup", "utf8").split("\n").find((l) => l.split(":")[1]?.split(",").includes(controller));
  if (!line) throw new Error(`live-scale: no cgroup v1 ${controller} hierarchy here`);
  return `/sys/fs/cgroup/${controller}${line.split(":")[2]}`;
}

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
  const cpu = `${groupPath("cpuacct")}/${tag}`;
  const mem = `${groupPath("memory")}/${tag}`;
  mkdirSync(cpu);
  mkdirSync(mem);
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
    const quoted = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    const child = await execa("sh", ["-c", `echo $$ > ${cpu}/cgroup.procs && echo $$ > ${mem}/cgroup.procs && exec ${quoted}`], {
      input,
      stderr: "inherit",
    });
    return {
      stdout: child.stdout,
      cpuSeconds: Number(read(`${cpu}/cpuacct.usage`)) / 1e9,
      peakCgroupBytes: Number(read(`${mem}/memory.max_usage_in_bytes`)),
      peakRssBytes: peakRss,
      peakPssBytes: peakPss,
    };
  } finally {
    clearInterval(timer);
    // Empty once the tree has exited; a leftover process would keep the group, which is then said.
    for (const dir of [cpu, mem]) {
      try {
        rmdirSync(dir);
      } catch (err) {
        console.error(`live-scale: could not remove ${dir} (${(err as Error).message})`);
      }
    }
  }
}
