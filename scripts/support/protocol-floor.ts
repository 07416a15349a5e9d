/**
 * A floor under the baseline's worker start (issue 23, target 1a) that keeps what the project
 * requires of every Node worker: the IPC channel, `node:http`'s client, and the protocol checked
 * with zod (contract/protocol.ts; zod is the project's rule for the protocol). The process builds
 * the protocol's schemas, parses one build message with them as a worker parses the orchestrator's,
 * says `ready` and exits. No host, no tools, no corpus, no adapter.
 *
 * It starts as the workers do (workers/bundle-start.cjs): one CommonJS script with zod inside,
 * compiled with a V8 code cache written after one warm-up run, so what separates it from the
 * baseline's worker is the harness's own code, not how the code arrives.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execaNode } from "execa";
import type { ArenaSpec } from "../../contract/protocol.ts";
import { coldStartConfig } from "./measure.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const START_SCRIPT = path.join(REPO, "workers/bundle-start.cjs");

/** The build message a cold start sends (support/measure.ts coldStart), with `arena` as given. */
function buildMessage(arena: ArenaSpec, corpusPath: string) {
  return {
    type: "build",
    adapter: { name: "vanilla", module: path.join(REPO, "workers/adapters/vanilla/index.ts") },
    arena,
    config: coldStartConfig("m"),
    corpusPath,
    seat: 0,
  };
}

/**
 * Builds the floor's script in a fresh temporary folder and writes its code cache (one run with
 * `ARENA_CODE_CACHE_OUT`, as supervisor/code-cache.ts warms a worker's). Returns the file to start
 * with the IPC channel open (`start.cjs`); the folder goes when this process exits.
 */
export async function prepareProtocolFloor(arena: ArenaSpec, corpusPath: string): Promise<string> {
  const esbuild = await import("esbuild");
  const dir = mkdtempSync(path.join(os.tmpdir(), "arena-protocol-floor-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const entry = [
    `import { ToWorkerSchema } from ${JSON.stringify(path.join(REPO, "contract/protocol.ts"))};`,
    `new (process.getBuiltinModule("node:http").Agent)({ keepAlive: true });`,
    `ToWorkerSchema.parse(JSON.parse(${JSON.stringify(JSON.stringify(buildMessage(arena, corpusPath)))}));`,
    `process.send({ type: "ready", pid: process.pid }, () => process.exit(0));`,
  ].join("\n");
  await esbuild.build({
    stdin: { contents: entry, resolveDir: REPO, sourcefile: "protocol-floor.ts", loader: "ts" },
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node24",
    keepNames: true,
    banner: { js: '"use strict";' },
    outfile: path.join(dir, "bundle.cjs"),
    logLevel: "silent",
  });
  const start = path.join(dir, "start.cjs");
  copyFileSync(START_SCRIPT, start);
  const cache = path.join(dir, "bundle.code-cache");
  await execaNode(start, [], { ipc: true, env: { ARENA_CODE_CACHE_OUT: cache } });
  if (!existsSync(cache)) throw new Error(`protocol floor: its warm-up run wrote no code cache (${cache})`);
  return start;
}
