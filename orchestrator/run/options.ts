/**
 * What a run is asked to do and what it hands back (the run's public types, p-queue style: each
 * option's meaning is stated where it is declared). Both the CLI and the probes build these.
 */
import type { BudgetCounts } from "../supervisor/worker-budget.ts";
import type { AgentResult } from "../../contract/protocol.ts";
import type { Arena } from "../arena/schemas.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import type { GatewayRecords } from "../gateway/index.ts";
import type { LaneTranscriptFile } from "../report/html/transcript.ts";
import type { Provenance } from "../report/provenance.ts";
import type { AdapterRecord, ItemRecord, RunRecord } from "../report/record.ts";
import type { GatewayFaults } from "./run-gateway.ts";

export interface AdapterEntry {
  readonly name: string;
  /** Absolute path of the module whose default export is the Adapter. */
  readonly module: string;
  /**
   * The module whose folder holds the adapter's `declarations.json`, when `module` is a wrapper
   * around it (a fixture or a test that wraps a real adapter's module). Default: `module`.
   */
  readonly declarationsOf?: string;
  /** A variant entry (a different structure, e.g. a pipeline); marked † in summaries. */
  readonly variant?: boolean;
  /** Run only on these arenas (set for variants selected through `all`; absent = every arena). */
  readonly onlyArenas?: readonly string[];
}

export interface ProgressEvent {
  readonly arena: string;
  readonly framework: string;
  readonly itemId?: string;
  readonly repeat?: number;
  readonly passed?: boolean;
  /** Why a finished item failed (report/failure-reason.ts); absent when it passed. */
  readonly reason?: string;
  readonly unavailable?: string;
  /** A finished cell's wall time in its slot, every leg and restart included (for the ETA). */
  readonly seconds?: number;
  readonly done: number;
  readonly total: number;
}

/** What a session will run, said once before its first worker starts. */
export interface RunPlanEvent {
  /** Every cell of the plan, those an earlier session recorded included. */
  readonly total: number;
  /** Every arena × adapter lane, with the cells this session will run on it. */
  readonly lanes: readonly { readonly arena: string; readonly adapter: string; readonly cells: number }[];
  readonly concurrency: number;
}

/** The cells of an earlier session of the same run: they are kept, not run again. */
export interface PriorCells {
  /** Finished cells by `cellKey(arena, framework)`, then `itemKey(repeat, item)`. */
  readonly items: ReadonlyMap<string, ReadonlyMap<string, ItemRecord>>;
  /** Each lane's recorded outcome by `cellKey(arena, framework)`. */
  readonly lanes: ReadonlyMap<string, Omit<AdapterRecord, "items">>;
}

export interface RunOptions {
  readonly arenas: readonly Arena[];
  readonly adapters: readonly AdapterEntry[];
  readonly config: ArenaConfig;
  readonly corpusPath: string;
  /** Names the run in its records (`runs/<runId>/`). */
  readonly runId?: string;
  /** When the run began (a resumed run keeps its first session's start). Default: now. */
  readonly startedAt?: Date;
  /** Items in flight at once (default: number of cores). */
  readonly concurrency?: number;
  /** Restrict to these item ids (a partial run: no scorecard). */
  readonly itemFilter?: readonly string[];
  /** Run only the cells this returns true for (`--shard I/N`, run/shard.ts); lanes without one are not opened. */
  readonly keepCell?: (arena: string, adapter: string, repeat: number, itemId: string) => boolean;
  readonly dirs: {
    /** Worker logs of this run. */
    readonly logDir: string;
    /** This session's checkpoint root; each adapter × arena gets a fresh folder inside it. */
    readonly checkpointRoot: string;
    /** Where the gateway spills request bodies beyond its memory budget (default: its own temp dir). */
    readonly gatewayDir?: string;
    /**
     * The output roots these folders live in (runs/, checkpoints/, results/): a sealed worker sees
     * none of them, so no earlier run's records, logs or checkpoints either. Default: the folders above.
     */
    readonly outputRoots?: readonly string[];
  };
  /** Cells finished by an earlier session of this run (`--resume`): merged, not run. */
  readonly prior?: PriorCells;
  /** A finished cell, the moment it finishes (the journal). */
  readonly onItem?: (arena: string, adapter: string, record: ItemRecord) => void;
  /** A lane's outcome once its build answered (the journal). */
  readonly onLane?: (arena: string, lane: Omit<AdapterRecord, "items">) => void;
  /**
   * Refuse a lane before it runs anything, e.g. a resume whose adapter version changed: the
   * returned text stops the whole run, as an interrupt does, and is reported as `refused`.
   */
  readonly checkLane?: (arena: string, adapter: string, libVersion: string) => string | undefined;
  /** Stop scheduling when aborted; in-flight items get `graceMs` to finish, then their workers are killed. */
  readonly signal?: AbortSignal;
  /** How long in-flight items may finish after `signal` aborts (default 3 s). */
  readonly graceMs?: number;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Called once, as soon as the matrix is planned and before any gateway or worker starts. */
  readonly onPlan?: (plan: RunPlanEvent) => void;
  /** Per-leg deadline for a worker's answer (default: derived from the request timeout and budget). */
  readonly legDeadlineMs?: number;
  /** Per-item scoring deadline (regexes from data files score untrusted text). */
  readonly scoreDeadlineMs?: number;
  /**
   * Resume durable arenas on the same process (DriveOptions): probes, and `--no-restart`, which
   * is for measurement only (the CLI refuses it where a run must prove its restarts).
   */
  readonly reuseWorkerAcrossPause?: boolean;
  /**
   * Items one worker carries at once on a non-durable arena, each on its own seat (default 1;
   * config/items-per-worker.ts says what it keeps and what the items share). Durable arenas and
   * adapters on the Python host: always 1.
   */
  readonly itemsPerWorker?: number;
  /** Told each time the run's workers outside the spares change, busy and idle (supervisor/worker-budget.ts). */
  readonly onWorkerCounts?: (counts: BudgetCounts) => void;
  /** Extra environment for workers (tests). */
  readonly workerEnv?: Readonly<Record<string, string>>;
  /** Working directory for workers (probes run them in an empty temp dir; default: inherited). */
  readonly workerCwd?: string;
  /** What each arena's record says about its origins (the CLI knows the command and the hashes). */
  readonly provenance?: (arenaId: string) => Provenance;
  /** Transport faults for the mock gateways (probes). */
  readonly gatewayFaults?: GatewayFaults;
  /**
   * Each item's leg results as its workers sent them (probes judge what an adapter reported about
   * itself, e.g. its tool-call arguments, which the record keeps only by name).
   */
  readonly onLegs?: (arena: string, adapter: string, itemId: string, results: readonly AgentResult[]) => void;
  /**
   * What a lane's build told the orchestrator the adapter declares (its delegates, its wire
   * exceptions with their reasons), once per lane, before the lane decides whether it can run. The
   * probes judge these declarations; they come on the build reply every run gets, so a probe needs
   * nothing in the worker that a bench does not have.
   */
  readonly onBuilt?: (arena: string, adapter: string, declared: BuiltDeclarations) => void;
}

/** What an adapter declares about itself on its build reply (contract/adapter.ts). */
export interface BuiltDeclarations {
  readonly delegates: readonly string[];
  readonly wireExceptions: readonly { readonly key: string; readonly reason: string }[];
}

export interface RunOutcome {
  /** One per arena; `status` says whether every cell ran. */
  readonly records: RunRecord[];
  /** Items that failed or errored, over all arenas and frameworks (prior cells included). */
  readonly failedItems: number;
  /** True when `signal` stopped the run before every cell ran. */
  readonly interrupted: boolean;
  /** Why `checkLane` stopped the run, when it did. */
  readonly refused?: string;
  /** Why the circuit breaker stopped the run (the provider failed too often in a row), when it did. */
  readonly breaker?: string;
  /** What each arena's mock gateway received and served, by arena id (mock mode only). */
  readonly gatewayRecords: ReadonlyMap<string, GatewayRecords>;
  /** Every lane's transcripts (report/transcripts-file.ts writes them beside the records). */
  readonly transcripts: readonly LaneTranscriptFile[];
  /** Where each item's time went (for the harness benchmark; not part of any record). */
  readonly timings: readonly ItemTiming[];
  /** The lane-level witness rules' time per lane (for the witness benchmark; not part of any record). */
  readonly laneWitnessTimings: readonly LaneWitnessTiming[];
}

export interface LaneWitnessTiming {
  readonly arena: string;
  readonly framework: string;
  readonly items: number;
  /** Time the rules that compare a lane's items with each other took, on the main loop. */
  readonly seconds: number;
}

export interface ItemTiming {
  readonly arena: string;
  readonly framework: string;
  readonly itemId: string;
  /** Orchestrator wall time for the item's legs, restarts included. */
  readonly wallSeconds: number;
  /** Time inside the adapter's run/resume, measured in the workers. */
  readonly adapterSeconds: number;
  /** Of `wallSeconds`, the wait for a worker's seat: a start, a build, a durable restart. */
  readonly seatSeconds: number;
  /** Time to score the item off the main loop. */
  readonly scoreSeconds: number;
  /** Time the witness took on the item on the main loop: the served result and every per-item rule. */
  readonly witnessSeconds: number;
  readonly restarts: number;
}
