// Preloaded (NODE_OPTIONS=--require) into a timed command by support/timed-run.ts: at exit, the
// CPU of this process alone, all its threads, in microseconds, into the file ARENA_CPU_AT_EXIT
// names. NODE_OPTIONS stops here: a worker is handed only an allow-list of the environment
// (orchestrator/supervisor/worker-env.ts), so what the tree's cgroup counts beyond this is theirs.
"use strict";
const out = process.env.ARENA_CPU_AT_EXIT;
if (out) {
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    require("node:fs").writeFileSync(out, String(user + system));
  });
}
