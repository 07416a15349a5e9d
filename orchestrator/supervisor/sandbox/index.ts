/**
 * How a run's workers are isolated, one {@link Isolation} per adapter pool (the session makes it).
 *
 * - `sandbox` (Linux with a working bubblewrap): every worker runs sealed — it sees only what it
 *   needs of the tree (view.ts: no datasets, runs, logs or other checkpoints), writes only the
 *   folder of the item it is running and a private TMPDIR (private-area.ts: every other write
 *   lands in a throwaway layer and is reported to the item's record), own PID namespace (whatever
 *   it spawns dies with it), and, when every gateway is on loopback, own network namespace whose
 *   only way out is a bridge to the gateway ports (bridge.ts).
 * - `watched` (no bwrap, or `ARENA_SANDBOX=off`): the worker runs as before, but its descendants
 *   are found and killed when it exits and writes outside its folders that its own process tree
 *   made are recorded (worker-watch.ts; attribution.ts says what counts as its own); each
 *   survivor or write is a violation in the run record.
 *
 * Locations a caller hands a worker explicitly (`workerCwd`, absolute paths in `workerEnv`: a
 * test's scratch folders; a bench, and so a probe, hands none) are the caller's to inspect: they
 * are writable when strictly inside the temp root, and read-only anywhere else.
 */
import { mkdirSync, mkdtempSync, statSync } from "node:fs";
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { acquireRoutes, BRIDGE_PRELOAD, BRIDGE_PRELOAD_FILES, loopbackPorts, releaseRoutes, socketsFit, type BridgeRoute } from "./bridge.ts";
import { bwrapArgs, within } from "./bwrap.ts";
import { sealedCache } from "./compile-cache.ts";
import { readSandboxMode, resolveLevel, type Level } from "./mode.ts";
import { TOKEN_VAR } from "./survivors.ts";
import type { IsolationRecord } from "../../report/record.ts";
import { WriteLedger } from "./watch.ts";
import { WorkerWatch } from "./worker-watch.ts";
import { removeQuietly } from "../../files/fs-error.ts";
import { removeInBackground } from "./background-removal.ts";
import { PrivateArea } from "./private-area.ts";
import { sealedView } from "./view.ts";
import { readBundleSetting } from "../worker-entry.ts";

const REPO = fileURLToPath(new URL("../../..", import.meta.url)).replace(/\/$/, "");

export interface IsolationRequest {
  readonly adapter: string;
  /** The adapter's folder in the run's checkpoint root (its lanes' folders are inside). */
  readonly checkpointDir: string;
  /** The gateway base URLs workers are handed; read at each worker start (gateways start first). */
  readonly endpoints: () => readonly string[];
  /** Where `ARENA_SANDBOX` is read (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Folders a sealed worker must not see: the run's output roots (runs, checkpoints, results, or
   * the session's own folders) and its arenas' folders. The repository and the temp dir are hidden always.
   */
  readonly hidden?: readonly string[];
}

export interface LaunchRequest {
  readonly id: string;
  readonly adapter: { readonly name: string; readonly module: string };
  readonly corpusPath: string;
  /** The working directory the caller asked for (undefined: the repository, `Launch.cwd`). */
  readonly cwd: string | undefined;
  /** The environment spawnHost built (the inherited allow-list, caller env, telemetry off). */
  readonly env: NodeJS.ProcessEnv;
  /** Only what the caller added (WorkerSpec.env). */
  readonly callerEnv: Readonly<Record<string, string>>;
  /** Files a sealed worker must read beyond the worker tree (a test's own host script). */
  readonly readable?: readonly string[];
  /** The interpreter, for an adapter on the Python host (python-host.ts); absent: the Node host. */
  readonly python?: string;
  /** The file a Node host starts from (its bundle or workers/host.ts: worker-entry.ts), which the compile cache is warmed with. */
  readonly host?: string;
}

/** What the exit hook needs of execa's subprocess: its pid, and Node's ChildProcess for the events. */
export type Spawned = { readonly pid?: number | undefined; readonly nodeChildProcess: ChildProcess };

/** How to start the host: execaNode's `nodePath`/`nodeOptions`, the env, and a hook for the process. */
export interface Launch {
  readonly nodePath: string;
  readonly nodeOptions: string[] | undefined;
  /**
   * The words before the host's own command line: `bwrap <args> --` when sealed, none when
   * watched. A Python host is started as `<prefix> python <args>` (execaNode builds the Node
   * host's line from `nodePath` and `nodeOptions`, which hold the same words).
   */
  readonly prefix: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** The caller's working directory, else the repository (as for `pnpm bench`); never the user's shell's: a layer may cover it, `python -m` imports from it. */
  readonly cwd: string;
  /** Call with the spawned process at once: cleans up (watched: checks) the moment it exits. */
  readonly attach: (child: Spawned) => void;
  /** A sealed worker's private area: the item's folder goes in for each leg, and what it wrote elsewhere comes out. */
  readonly area?: PrivateArea;
}

/** Node flags a worker inherits from the orchestrator, filtered as execaNode does by default. */
export function inheritedNodeOptions(execArgv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i += 1) {
    const a = execArgv[i]!;
    if (["-e", "--eval", "-p", "--print", "-pe", "--input-type", "--inspect-port"].includes(a)) {
      if (!execArgv[i + 1]?.startsWith("-")) i += 1;
    } else if (!/^--(?:inspect|eval=|print=|input-type=)/.test(a)) out.push(a);
  }
  return out;
}

/** Caller-supplied directories a worker may write: existing, strictly inside the temp root. */
export function callerDirs(cwd: string | undefined, callerEnv: Readonly<Record<string, string>>): string[] {
  const tmp = path.resolve(os.tmpdir());
  const dirs = new Set<string>();
  const consider = (p: string, exact: boolean) => {
    const abs = path.resolve(p);
    const st = statSync(abs, { throwIfNoEntry: false });
    const dir = st?.isDirectory() ? abs : exact ? undefined : path.dirname(abs);
    if (!dir || dir === tmp || !within(dir, tmp) || !statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
    dirs.add(dir);
  };
  if (cwd) consider(cwd, true);
  for (const v of Object.values(callerEnv)) if (path.isAbsolute(v)) consider(v, false);
  return [...dirs];
}

const ledger = new WriteLedger();
let privateRoot: string | undefined;

/** A fresh private folder for one worker (its TMPDIR inside, and a sealed worker's layers), under one per-process parent. */
function privateDir(id: string): string {
  if (privateRoot === undefined) {
    const root = mkdtempSync(path.join(os.tmpdir(), "arena-workers-"));
    privateRoot = root;
    // Each worker removes its own; the parent goes with the orchestrator.
    process.once("exit", () => removeQuietly(root));
  }
  return mkdtempSync(path.join(privateRoot, `${id}-`));
}

export class Isolation {
  readonly level: Level;
  private readonly request: IsolationRequest;
  private network: { sealed: boolean; reason?: string } | undefined;
  private readonly pending: string[] = [];

  /** Throws a ConfigError for a bad `ARENA_SANDBOX`, or `bwrap` on a machine without one. */
  constructor(request: IsolationRequest) {
    this.request = request;
    this.level = resolveLevel(readSandboxMode(request.env ?? process.env));
    // Checked with the sandbox's setting, before the run: a run's pools each make an Isolation.
    readBundleSetting(request.env ?? process.env);
  }

  launch(req: LaunchRequest): Launch {
    mkdirSync(this.request.checkpointDir, { recursive: true });
    const given = callerDirs(req.cwd, req.callerEnv);
    const ownTmp = req.callerEnv.TMPDIR === undefined;
    const own = ownTmp ? privateDir(req.id) : undefined;
    const tmp = req.callerEnv.TMPDIR ?? path.join(own!, "tmp");
    if (own) mkdirSync(tmp);
    const env: NodeJS.ProcessEnv = { ...req.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp };
    // The worker's own folder (its TMPDIR; a sealed one's layers too) goes off the loop (background-removal.ts).
    const cleanup = () => {
      if (own) removeInBackground([own]);
    };
    const cwd = path.resolve(req.cwd ?? REPO);
    if (this.level.level === "sandbox") return this.sealed(req, env, cwd, { tmp, own, given }, cleanup);
    return this.watched(req, env, cwd, [this.request.checkpointDir, tmp, ...given], cleanup);
  }

  /** The lane's isolation, with the violations seen since the last call (each is reported once). */
  record(): IsolationRecord {
    const network = this.network ?? this.networkPlan();
    const violations = this.pending.splice(0);
    const reason = this.level.level === "watched" ? this.level.reason : network.reason;
    return {
      level: this.level.level,
      network: network.sealed ? "sealed" : "shared",
      tool: this.level.level === "sandbox" ? this.level.bwrap.version : `watcher (${process.platform === "linux" ? "/proc" : "ps"})`,
      ...(reason ? { reason } : {}),
      ...(violations.length > 0 ? { violations } : {}),
    };
  }

  private networkPlan(): { sealed: boolean; ports: number[]; reason?: string } {
    if (this.level.level === "watched") return { sealed: false, ports: [], reason: this.level.reason };
    if (!socketsFit()) return { sealed: false, ports: [], reason: `network shared: the temp dir path is too long for the bridge's Unix sockets` };
    const ports = loopbackPorts(this.request.endpoints());
    return ports.ok ? { sealed: true, ports: ports.ports } : { sealed: false, ports: [], reason: `network shared: ${ports.reason}` };
  }

  private sealed(req: LaunchRequest, env: NodeJS.ProcessEnv, cwd: string, dirs: { tmp: string; own: string | undefined; given: string[] }, cleanup: () => void): Launch {
    if (this.level.level !== "sandbox") throw new Error("unreachable");
    const net = this.networkPlan();
    this.network = net;
    const bridge = net.sealed ? acquireRoutes(net.ports, `${this.request.adapter}/${req.id}`) : undefined;
    const routes: readonly BridgeRoute[] = bridge?.routes ?? [];
    const python = req.python;
    // The Python host opens the same listeners itself (arena_host/bridge.py); Node's compile cache is no use to it.
    const nodeOptions = python !== undefined ? [] : [...inheritedNodeOptions(), ...(net.sealed ? ["--require", BRIDGE_PRELOAD] : [])];
    if (python === undefined && req.callerEnv.NODE_COMPILE_CACHE === undefined) {
      env.NODE_COMPILE_CACHE = sealedCache(req.adapter, req.corpusPath, this.level.bwrap, nodeOptions, req.host).dir;
    }
    if (python !== undefined) delete env.NODE_COMPILE_CACHE;
    if (net.sealed) env.ARENA_SANDBOX_BRIDGE = JSON.stringify(routes);
    const writable = [dirs.tmp, ...dirs.given];
    const view = sealedView({
      repo: REPO,
      tmp: os.tmpdir(),
      // A root that does not exist yet holds nothing to hide (and bwrap could not mount over it).
      hidden: (this.request.hidden ?? [this.request.checkpointDir]).filter((p) => statSync(p, { throwIfNoEntry: false })?.isDirectory()),
      module: req.adapter.module,
      corpusPath: req.corpusPath,
      readable: [
        ...(python === undefined ? BRIDGE_PRELOAD_FILES : []),
        ...(env.NODE_COMPILE_CACHE ? [env.NODE_COMPILE_CACHE] : []),
        ...routes.map((r) => path.dirname(r.socket)),
        // The interpreter's installation (<prefix>/bin/python): bound back only if a layer hides it, as a venv inside the repository would be.
        ...(python !== undefined ? [path.dirname(path.dirname(python))] : []),
        ...(req.readable ?? []),
      ],
    });
    const area = new PrivateArea({
      // Inside the worker's private folder; with a caller's TMPDIR, a folder of its own (removed when the worker exits).
      layersRoot: dirs.own ? path.join(dirs.own, "layers") : mkdtempSync(path.join(os.tmpdir(), "arena-layers-")),
      slot: path.join(path.dirname(this.request.checkpointDir), ".private", `${path.basename(this.request.checkpointDir)}-${req.id}-${randomUUID().slice(0, 8)}`),
      checkpointDir: this.request.checkpointDir,
      tmp: dirs.tmp,
      covered: view.covered,
      readable: view.readable,
      writable,
    });
    // /run holds the host's Unix sockets; mask it unless something the worker needs is there.
    const needed = [cwd, REPO, python ?? process.execPath, req.corpusPath, os.tmpdir(), env.HOME ?? "/", ...writable, ...routes.map((r) => r.socket)];
    // Only when sealed: with a shared network, DNS may live there (resolv.conf → /run/systemd/resolve).
    const maskRun =
      net.sealed && statSync("/run", { throwIfNoEntry: false })?.isDirectory() === true && !needed.some((p) => within(path.resolve(p), "/run"));
    const args = bwrapArgs({ writable, mounts: area.mounts, cwd, sealNetwork: net.sealed, maskRun });
    return {
      nodePath: this.level.bwrap.path,
      nodeOptions: [...args, "--", process.execPath, ...nodeOptions],
      prefix: [this.level.bwrap.path, ...args, "--"],
      env,
      cwd,
      area,
      attach: (child) =>
        onExit(child, () => {
          if (bridge) releaseRoutes(bridge);
          // The layers sit inside the worker's own folder when it has one, so that goes after them.
          removeInBackground(area.dispose(), cleanup);
        }),
    };
  }

  private watched(req: LaunchRequest, env: NodeJS.ProcessEnv, cwd: string, writable: string[], cleanup: () => void): Launch {
    this.network = this.networkPlan();
    const token = randomUUID();
    env[TOKEN_VAR] = token;
    const skip = [...writable, ...(privateRoot ? [privateRoot] : []), path.join(os.tmpdir(), "agentic-arena-compile-cache")];
    // Snapshots now, before the worker starts; worker-watch.ts says what is charged to it and why.
    const watch = new WorkerWatch({ repo: REPO, checkpointDir: this.request.checkpointDir, home: env.HOME, skip, writable, token, ledger });
    return {
      nodePath: process.execPath,
      nodeOptions: undefined,
      prefix: [],
      env,
      cwd,
      attach: (child) => {
        watch.follow(child.pid);
        onExit(child, () => {
          let found: string[];
          try {
            // Detached: the worker leads its own process group, whose id is its pid.
            found = watch.check(child.pid).violations;
          } catch (err) {
            // This runs in an exit handler: a throw here would take the orchestrator down.
            found = [`the watcher failed, so this worker went unchecked: ${(err as Error).message}`];
          }
          this.pending.push(...found.map((v) => `${req.id}: ${v}`));
          cleanup();
        });
      },
    };
  }
}

/** Run `done` once, synchronously, when the process exits or fails to start. */
function onExit(child: Spawned, done: () => void): void {
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    try {
      done();
    } catch {
      // Cleanup is best effort (a temp dir left behind); it must never crash the orchestrator.
    }
  };
  child.nodeChildProcess.once("exit", once);
  child.nodeChildProcess.once("error", once);
}
