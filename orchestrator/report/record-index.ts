/**
 * What the run-folder summary across runs (output.ts `latestRecords`) needs to know of each run
 * record before it picks which ones to read whole: its arena, mode and status, whether it was
 * filtered, and how well the provider served each lane. Kept in `runs/.record-index`, keyed by
 * each record's path, inode, size and modification time, so a run concludes by reading the records
 * it shows rather than every record of every earlier run: with 68 runs here, that reading was
 * ~130 ms of CPU at the end of every mock run, and it grew with each run (docs/performance.md,
 * "the summary across runs reads only the records it shows").
 *
 * The index is only a cache: an entry is used while its record's inode, size and time are what
 * they were, a record that changed or is new is read and noted again, and a missing, damaged or
 * unwritable index costs only the reading it would have saved. Records are written whole, by a
 * rename (files/atomic.ts), so a rewritten record is another inode, whatever its time and size.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../files/atomic.ts";
import { laneServedness, type Servedness } from "./not-served.ts";
import type { RunRecord } from "./record.ts";

/** No `.json`: latestRecords warns of the `.json` files it finds beside the run folders. */
export const RECORD_INDEX_FILE = ".record-index";
const INDEX_VERSION = 2;

export interface RecordFacts {
  readonly arena: string;
  readonly mode: RunRecord["mode"];
  readonly status: RunRecord["status"];
  readonly filtered: boolean;
  /** In the record's order: each lane's framework and how much of it the provider served. */
  readonly lanes: readonly { readonly framework: string; readonly served: Servedness }[];
}

interface Entry {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly facts: RecordFacts;
}

function factsOf(record: RunRecord): RecordFacts {
  return {
    arena: record.arena,
    mode: record.mode,
    status: record.status,
    filtered: Boolean(record.filtered_to),
    lanes: record.frameworks.map((lane) => ({ framework: lane.framework, served: laneServedness(lane) })),
  };
}

export class RecordIndex {
  readonly #runsDir: string;
  readonly #file: string;
  readonly #before: ReadonlyMap<string, Entry>;
  /** Entries for the records seen in this pass: what is saved (a removed run's records drop out). */
  readonly #now = new Map<string, Entry>();
  /** Records read whole for the summary (record()): the chosen ones, each read once. */
  readonly #read = new Map<string, RunRecord>();

  private constructor(runsDir: string, before: ReadonlyMap<string, Entry>) {
    this.#runsDir = runsDir;
    this.#file = path.join(runsDir, RECORD_INDEX_FILE);
    this.#before = before;
  }

  static open(runsDir: string): RecordIndex {
    const file = path.join(runsDir, RECORD_INDEX_FILE);
    let before = new Map<string, Entry>();
    try {
      const data = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown; entries?: Record<string, Entry> };
      if (data.version === INDEX_VERSION && data.entries !== null && typeof data.entries === "object") before = new Map(Object.entries(data.entries));
    } catch {
      // None yet, or not readable: every record is read this once.
    }
    return new RecordIndex(runsDir, before);
  }

  /**
   * The facts of the record at `file` (in the runs folder), from the index while the file is as it
   * was, else from `read` (which may throw: nothing is noted then).
   */
  facts(file: string, read: (file: string) => RunRecord): RecordFacts {
    const key = path.relative(this.#runsDir, file);
    const stat = statSync(file);
    const known = this.#before.get(key);
    if (known !== undefined && known.ino === stat.ino && known.size === stat.size && known.mtimeMs === stat.mtimeMs) {
      this.#now.set(key, known);
      return known.facts;
    }
    // Not kept: on an index that knows nothing yet (a first run, another version) that would hold
    // every record of every run at once. The few chosen ones are read again by record().
    const entry = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, facts: factsOf(read(file)) };
    this.#now.set(key, entry);
    return entry.facts;
  }

  /** The record at `file`, read whole (once per pass). */
  record(file: string, read: (file: string) => RunRecord): RunRecord {
    let record = this.#read.get(file);
    if (record === undefined) this.#read.set(file, (record = read(file)));
    return record;
  }

  /** Forgets the record at `file`: it did not read whole after all. */
  drop(file: string): void {
    this.#now.delete(path.relative(this.#runsDir, file));
  }

  /** Writes the index when this pass saw another set of records than it held; a failure only costs the next run's reading. */
  save(): void {
    const same = this.#now.size === this.#before.size && [...this.#now].every(([k, e]) => this.#before.get(k) === e);
    if (same) return;
    try {
      writeFileAtomic(this.#file, JSON.stringify({ version: INDEX_VERSION, entries: Object.fromEntries(this.#now) }));
    } catch {
      // A read-only runs folder: the summary beside it could not be written either, and says so.
    }
  }
}
