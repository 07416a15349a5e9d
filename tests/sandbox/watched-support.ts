/**
 * Helpers for the watched-mode attribution tests: a process outside any worker's tree that keeps
 * writing in a folder (what other runs, test suites and shells do in a shared temp dir), and one
 * script run as a watched worker through the real Isolation.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Isolation } from "../../orchestrator/supervisor/sandbox/index.ts";

/**
 * What the foreign writer does every 20 ms in `dir`, by the letters it is given: `c` appends a
 * line to `busy.log` (opened and closed each time), `h` appends to `held.log` through one fd kept
 * open, `f` makes a fresh `arena-bridge-XXXXXX` folder with a file inside, as another run's
 * sealed workers would.
 */
const FOREIGN = `
const fs = require("node:fs"), path = require("node:path");
const [dir, does] = process.argv.slice(1);
const held = does.includes("h") ? fs.openSync(path.join(dir, "held.log"), "a") : undefined;
const tick = () => {
  if (does.includes("c")) fs.appendFileSync(path.join(dir, "busy.log"), Date.now() + "\\n");
  if (held !== undefined) fs.writeSync(held, Date.now() + "\\n");
  if (does.includes("f")) fs.writeFileSync(path.join(fs.mkdtempSync(path.join(dir, "arena-bridge-")), "s"), "");
};
// One round before "ready": what it writes exists before a test's worker starts.
tick();
setInterval(tick, 20);
process.stdout.write("ready\\n");
`;

export interface Foreign {
  readonly pid: number;
  stop(): Promise<void>;
}

/** Start the foreign writer in `dir` (outside every worker's tree: the test spawns it); resolves once it runs. */
export async function foreignWriter(dir: string, does: { closed?: boolean; held?: boolean; folders?: boolean }): Promise<Foreign> {
  const letters = `${does.closed ? "c" : ""}${does.held ? "h" : ""}${does.folders ? "f" : ""}`;
  const child = spawn(process.execPath, ["-e", FOREIGN, dir, letters], { stdio: ["ignore", "pipe", "inherit"] });
  await once(child.stdout!, "data");
  return {
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** A watched Isolation for one made-up adapter whose folder is `checkpointDir`. */
export function watchedIsolation(checkpointDir: string): Isolation {
  return new Isolation({ adapter: "watched-test", checkpointDir, endpoints: () => [], env: { ARENA_SANDBOX: "off" } });
}

/**
 * Run `script` (Node, CommonJS `-e`) as a watched worker of `isolation`, as spawnHost starts one
 * (its own process group, the launch's env), and return the violations its exit check recorded.
 */
export async function runWatchedScript(isolation: Isolation, id: string, script: string): Promise<string[]> {
  const launch = isolation.launch({
    id,
    adapter: { name: "watched-test", module: "none" },
    corpusPath: "none",
    cwd: undefined,
    env: { ...process.env },
    callerEnv: {},
  });
  const child: ChildProcess = spawn(launch.nodePath, [...(launch.nodeOptions ?? []), "-e", script], { env: launch.env, detached: true, stdio: "ignore" });
  launch.attach({ pid: child.pid, nodeChildProcess: child });
  // attach's exit handler was registered first, so the check has run when this resolves.
  await once(child, "exit");
  return isolation.record().violations ?? [];
}
