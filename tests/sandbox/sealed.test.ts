/**
 * A sealed process, end to end, without the orchestrator in the way: started exactly as
 * spawnHost starts a worker (Isolation.launch + execaNode), it must reach the gateway at its
 * unchanged URL through the bridge and nothing else on loopback, write only its checkpoint folder
 * and private TMPDIR, talk over the inherited IPC channel both ways, and leave nothing behind.
 * Skipped where bwrap does not work (the watched path is tested in hostile.test.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execaNode } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backgroundRemovalsSettled } from "../../orchestrator/supervisor/sandbox/background-removal.ts";
import { Isolation } from "../../orchestrator/supervisor/sandbox/index.ts";
import { detectBwrap } from "../../orchestrator/supervisor/sandbox/mode.ts";
import { OUR_CORPUS } from "../support/run.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { findAdapter } from "../../contract/catalogue.ts";

const PROBE = fileURLToPath(new URL("./inside-probe.ts", import.meta.url));
const bwrap = detectBwrap();

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)));
}

describe.skipIf(!bwrap.ok)("a sealed process", () => {
  const hosts: string[] = [];
  const gateway = http.createServer((req, res) => {
    hosts.push(`${req.headers.host} ${req.url}`);
    res.end("gateway says hi");
  });
  const other = net.createServer((s) => s.end("should never be reached"));
  let ports: { gateway: number; other: number };
  beforeAll(async () => {
    ports = { gateway: await listen(gateway), other: await listen(other) };
  });
  afterAll(() => {
    gateway.close();
    other.close();
  });

  it("reaches only the gateway, at its own URL; writes only its folders; IPC works both ways", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "arena-sealed-"));
    const checkpointDir = path.join(root, "checkpoints", "vanilla");
    // This item's folder, and a finished item's beside it (with what it wrote).
    const itemDir = path.join(checkpointDir, "tool_use", "tu-02.r0");
    const otherItem = path.join(checkpointDir, "tool_use", "tu-01.r0");
    mkdirSync(itemDir, { recursive: true });
    mkdirSync(otherItem, { recursive: true });
    writeFileSync(path.join(otherItem, "answers.json"), "{}");
    const isolation = new Isolation({
      adapter: "vanilla",
      checkpointDir,
      endpoints: () => [`http://127.0.0.1:${ports.gateway}/t/x/v1`],
      env: { ARENA_SANDBOX: "bwrap" },
    });
    const vanilla = findAdapter("vanilla")!;
    const launch = isolation.launch({
      id: "w0",
      adapter: { name: vanilla.name, module: vanilla.module },
      corpusPath: OUR_CORPUS,
      cwd: undefined,
      env: { ...process.env },
      callerEnv: {},
      readable: [PROBE],
    });
    launch.area!.enter(itemDir);
    const child = execaNode(PROBE, [String(ports.gateway), String(ports.other), REPO_ROOT, itemDir, otherItem], {
      ipc: true,
      serialization: "json",
      env: launch.env,
      extendEnv: false,
      stdin: "ignore",
      detached: true,
      reject: false,
      nodePath: launch.nodePath,
      nodeOptions: launch.nodeOptions,
    });
    launch.attach(child);
    const report = (await child.getOneMessage()) as Record<string, unknown>;
    const strays = launch.area!.leave(itemDir);
    await child.sendMessage("bye");
    const result = await child;

    expect(result.exitCode, result.stderr as string).toBe(0);
    expect(report.gateway).toBe("gateway says hi");
    // Byte-identical URL: the gateway saw its own host:port, not a rewritten one.
    expect(hosts).toEqual([`127.0.0.1:${ports.gateway} /v1/models`]);
    expect(report.otherPort).toBe("ECONNREFUSED");
    // It sees the worker tree, not the data: no dataset, no other item's folder.
    expect([report.adapterRead, report.datasetRead, report.otherItemSeen]).toEqual(["ok", "ENOENT", false]);
    // Writes outside land in throwaway layers: they "work", reach nothing real, and are reported.
    expect([report.repoWrite, report.tmpRootWrite, report.besideItemWrite]).toEqual(["ok", "ok", "ok"]);
    expect(existsSync(path.join(REPO_ROOT, "sandbox-probe-was-here"))).toBe(false);
    expect(existsSync(path.join(path.dirname(report.tmpdir as string), "sandbox-probe-was-here"))).toBe(false);
    expect(strays.sort()).toEqual(
      [path.join(REPO_ROOT, "sandbox-probe-was-here"), path.join(path.dirname(report.tmpdir as string), "sandbox-probe-was-here"), path.join(checkpointDir, "tool_use", "beside.json")]
        .map((p) => `wrote ${p} (outside its item's folder and TMPDIR; removed)`)
        .sort(),
    );
    expect(report.tmpdirWrite).toBe("ok");
    expect(report.checkpointWrite).toBe("ok");
    // The item's folder came back out of the slot with what the leg wrote; the other item's never went in.
    expect(existsSync(path.join(itemDir, "store.json"))).toBe(true);
    expect(existsSync(path.join(otherItem, "answers.json"))).toBe(true);
    // Its own PID namespace: bwrap's init is 1, the process a low number.
    expect(report.pid).toBeLessThan(10);
    expect(report.bridgeEnvLeft).toBe(false);
    expect(report.compileCache).toMatch(/agentic-arena-compile-cache-sealed\/vanilla$/);
    // The private TMPDIR goes with the process, off the loop (background-removal.ts), and before the session ends.
    await backgroundRemovalsSettled();
    expect(existsSync(report.tmpdir as string)).toBe(false);
    expect(isolation.record()).toEqual({ level: "sandbox", network: "sealed", tool: bwrap.ok ? bwrap.bwrap.version : "" });
  });

  it("a provider off loopback cannot be bridged: the network stays shared and the record says why", () => {
    const isolation = new Isolation({
      adapter: "vanilla",
      checkpointDir: mkdtempSync(path.join(os.tmpdir(), "arena-sealed-")),
      endpoints: () => ["https://api.example.com/v1"],
      env: { ARENA_SANDBOX: "auto" },
    });
    expect(isolation.record()).toMatchObject({ level: "sandbox", network: "shared", reason: "network shared: the gateway https://api.example.com is not on loopback" });
  });
});
