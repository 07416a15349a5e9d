/**
 * Run inside a sealed sandbox by sealed.test.ts, the way workers/host.ts is: it reports over the
 * IPC channel what it could and could not do, then waits for the parent's "bye" (so the channel is
 * shown to work both ways) and exits. Arguments: the gateway port, a port that is not a gateway,
 * the repository root, the item's checkpoint folder, another item's folder.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

const [gatewayPort, otherPort, repo, checkpointDir, otherItem] = process.argv.slice(2);

function tryRead(file: string): string {
  try {
    readFileSync(file);
    return "ok";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? String(err);
  }
}

function tryWrite(file: string): string {
  try {
    writeFileSync(file, "x");
    return "ok";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? String(err);
  }
}

function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.on("connect", () => {
      s.destroy();
      resolve("connected");
    });
    s.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
  });
}

let gateway: string;
try {
  gateway = await (await fetch(`http://127.0.0.1:${gatewayPort}/v1/models`)).text();
} catch (err) {
  gateway = `failed: ${String((err as Error).cause ?? err)}`;
}

process.send!({
  pid: process.pid,
  gateway,
  otherPort: await tryConnect(Number(otherPort)),
  repoWrite: tryWrite(path.join(repo!, "sandbox-probe-was-here")),
  tmpRootWrite: tryWrite(path.join(path.dirname(process.env.TMPDIR!), "sandbox-probe-was-here")),
  tmpdirWrite: tryWrite(path.join(process.env.TMPDIR!, "scratch")),
  checkpointWrite: tryWrite(path.join(checkpointDir!, "store.json")),
  besideItemWrite: tryWrite(path.join(path.dirname(checkpointDir!), "beside.json")),
  datasetRead: tryRead(path.join(repo!, "arenas", "tool_use", "dataset.jsonl")),
  adapterRead: tryRead(path.join(repo!, "workers", "adapters", "vanilla", "index.ts")),
  otherItemSeen: existsSync(otherItem!),
  tmpdir: process.env.TMPDIR,
  bridgeEnvLeft: process.env.ARENA_SANDBOX_BRIDGE !== undefined,
  compileCache: process.env.NODE_COMPILE_CACHE,
});
process.on("message", (m) => {
  if (m === "bye") process.exit(0);
});
