/** Finding processes by an environment tag (Linux /proc), for the survivor tests. */
import { readdirSync, readFileSync } from "node:fs";

/** Live (not zombie) processes whose environment has `name=value`. */
export function tagged(name: string, value: string): number[] {
  const marker = `${name}=${value}`;
  const pids: number[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (!/^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]!)) pids.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/**
 * What `find` still returns after up to a second: a SIGKILLed sandbox's namespace is torn down
 * by the kernel just after bwrap's exit is seen, so "none" may take a moment to become true.
 */
export async function alive(find: () => number[], withinMs = 1_000): Promise<number[]> {
  const until = Date.now() + withinMs;
  for (;;) {
    const found = find();
    if (found.length === 0 || Date.now() > until) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}
