/**
 * Where recorded bodies and messages live: in memory up to a budget, then in a spill file
 * (spill.ts), read back when someone asks. A run can send hundreds of multi-megabyte transcripts;
 * holding them all kept the orchestrator's memory growing for the whole run (80 × 7.5 MB bodies:
 * RSS 134 → 779 MB, never released).
 *
 * Policy: a record goes to disk when keeping it would take the held bytes over the budget, so the
 * held bytes never exceed it (unless spilling failed, see {@link RecorderMemory.failure}). Older
 * records stay where they are: moving them would mean rewriting records someone may be reading.
 *
 * What is counted: request bodies (always, at the size of the string held: one byte per character
 * for ASCII, two otherwise, an upper bound of V8's representation) and response messages large
 * enough to matter (a delegation turn copies the user's text into its arguments). Small messages,
 * attempts and usage rows are a few hundred bytes of bookkeeping per request and stay in memory,
 * like the per-tag usage sums, which are read around every leg and must stay cheap.
 */
import { parsePyJson, dumpsPy, toJs, type PyDict } from "@agentic-arena/py-semantics";
import { isSpillFailure, openSpillFile, SpillDir, type SpillFailure, type SpillFile, type SpillRef } from "./spill.ts";
import type { RequestRecord, ResponseMessageRecord } from "./record-types.ts";

export const DEFAULT_RECORD_BUDGET_BYTES = 64 * 1024 * 1024;

/** Messages estimated below this many characters are bookkeeping: never counted, never spilled. */
const MESSAGE_COUNTED_CHARS = 4096;

export interface RecorderOptions {
  /** Bytes of bodies (and large messages) held in memory before new ones go to disk. Default 64 MiB; 0 spills every non-empty body. */
  readonly budgetBytes?: number;
  /** Directory for spill files (created on first spill, never removed). Default: a private temp dir, removed by `removeSpillFiles()`. */
  readonly spillDir?: string;
  /** Leave the spill files (and a private dir) on disk when the gateway stops. Default false. */
  readonly keepSpillFiles?: boolean;
}

export interface RecorderMemory {
  readonly budgetBytes: number;
  /** Bytes of recorded bodies and counted messages held in memory now. */
  readonly heldBytes: number;
  /** Bytes of the current records that live in spill files, and how many records those are. */
  readonly spilledBytes: number;
  readonly spilledRecords: number;
  /** Every spill file opened (one per `clear()` generation); removed at stop unless kept. */
  readonly spillFiles: readonly string[];
  /**
   * The first spill that failed; from then on records stay in memory (nothing is lost, the budget
   * is exceeded). Or a spill file that could not be removed (`op: "remove"`; it is left on disk).
   */
  readonly failure: SpillFailure | null;
}

const utf8 = new TextDecoder("utf-8");
const encoder = new TextEncoder();

function parseBody(text: string): PyDict {
  return text === "" ? new Map() : (parsePyJson(text) as PyDict);
}

/**
 * The one most recently parsed record value, shared by a store's records, so `r.body.get("a")`
 * then `r.body.get("b")` parses once and returns the same object. Only one: a per-record cache
 * (strong, or a WeakRef, which V8 keeps alive until the current job ends) holds every body a
 * synchronous loop over the records touched — about 1 GB for the 80 × 7.5 MB run.
 */
interface LastParsed {
  owner: object | undefined;
  value: PyDict | undefined;
}

function cached(last: LastParsed, owner: object, parse: () => PyDict): PyDict {
  if (last.owner === owner) return last.value as PyDict;
  const value = parse();
  last.owner = owner;
  last.value = value;
  return value;
}

/**
 * A request body kept as the text (or spilled bytes) it arrived as and parsed only when read. A
 * parsed body is thousands of small objects; holding those for every request made each
 * young-generation GC copy them and cost the gateway its tail latency, while a string is one
 * block. `parsePyJson` is deterministic, so the value read back is the one that was served and
 * billed; a reader that wants to keep the parsed form keeps it itself.
 */
class StoredRequest implements RequestRecord {
  readonly attempt: number;
  readonly tag: string;
  readonly #source: string | SpillRef;
  readonly #last: LastParsed;

  constructor(attempt: number, tag: string, source: string | SpillRef, last: LastParsed) {
    this.attempt = attempt;
    this.tag = tag;
    this.#source = source;
    this.#last = last;
  }

  get body(): PyDict {
    return cached(this.#last, this, () => parseBody(this.#text()));
  }

  get plain(): unknown {
    const text = this.#text();
    if (text === "") return {};
    try {
      return JSON.parse(text);
    } catch {
      return toJs(parseBody(text));
    }
  }

  #text(): string {
    const s = this.#source;
    return typeof s === "string" ? s : utf8.decode(s.file.read(s.offset, s.length));
  }
}

/** A large response message that went to disk as its Python JSON text (which reads back to an equal value). */
class SpilledMessage implements ResponseMessageRecord {
  readonly attempt: number;
  readonly tag: string;
  readonly #ref: SpillRef;
  readonly #last: LastParsed;

  constructor(attempt: number, tag: string, ref: SpillRef, last: LastParsed) {
    this.attempt = attempt;
    this.tag = tag;
    this.#ref = ref;
    this.#last = last;
  }

  get message(): PyDict {
    const r = this.#ref;
    return cached(this.#last, this, () => parsePyJson(utf8.decode(r.file.read(r.offset, r.length))) as PyDict);
  }
}

export class RecordStore {
  readonly #budget: number;
  readonly #keep: boolean;
  readonly #dir: SpillDir;
  #file: SpillFile | undefined;
  readonly #files: string[] = [];
  #held = 0;
  #spilledBytes = 0;
  #spilledRecords = 0;
  #failure: SpillFailure | null = null;
  /** An open or write failed: the disk is not usable, so records stay in memory from then on. */
  #spillOff = false;
  /** After {@link removeSpillFiles} nothing more goes to disk (the directory may be gone). */
  #closed = false;
  readonly #last: LastParsed = { owner: undefined, value: undefined };

  constructor(o: RecorderOptions = {}) {
    const budget = o.budgetBytes ?? DEFAULT_RECORD_BUDGET_BYTES;
    if (!(Number.isSafeInteger(budget) && budget >= 0)) throw new RangeError(`recordBudgetBytes must be an integer >= 0, got ${budget}`);
    this.#budget = budget;
    this.#keep = o.keepSpillFiles ?? false;
    this.#dir = new SpillDir(o.spillDir);
  }

  /** `raw` is the body as received, `text` its decoded form (both empty for an empty body). */
  request(attempt: number, tag: string, raw: Uint8Array, text: string): RequestRecord {
    // Equal lengths mean pure ASCII, which V8 holds one byte per character; otherwise charge two.
    const charge = raw.length === text.length ? text.length : 2 * text.length;
    const ref = this.#place(charge, () => raw);
    return new StoredRequest(attempt, tag, ref ?? text, this.#last);
  }

  /** `completionTokens` (characters / 4 of its text or tool calls) sizes the message without walking it. */
  message(attempt: number, tag: string, message: PyDict, completionTokens: number): ResponseMessageRecord {
    const chars = 4 * (completionTokens + 1);
    if (chars < MESSAGE_COUNTED_CHARS) return { attempt, tag, message };
    const ref = this.#place(2 * chars, () => encoder.encode(dumpsPy(message)));
    return ref === undefined ? { attempt, tag, message } : new SpilledMessage(attempt, tag, ref, this.#last);
  }

  /** Keep `charge` bytes in memory if they fit (or spilling is off); else write `bytes()` to the spill file. */
  #place(charge: number, bytes: () => Uint8Array): SpillRef | undefined {
    if (charge === 0 || this.#held + charge <= this.#budget || this.#spillOff || this.#closed) {
      this.#held += charge;
      return undefined;
    }
    if (this.#file === undefined) {
      const opened = openSpillFile(this.#dir);
      if (isSpillFailure(opened)) return this.#fail(opened, charge);
      this.#file = opened;
      this.#files.push(opened.path);
    }
    const ref = this.#file.append(bytes());
    if (isSpillFailure(ref)) return this.#fail(ref, charge);
    this.#spilledBytes += ref.length;
    this.#spilledRecords += 1;
    return ref;
  }

  #fail(f: SpillFailure, charge: number): undefined {
    this.#note(f);
    this.#spillOff = true;
    this.#held += charge;
    return undefined;
  }

  /**
   * The records are forgotten: start a new generation. The old file is unlinked now (unless kept);
   * snapshots taken before still read it through its open descriptor.
   */
  clear(): void {
    if (this.#file !== undefined && !this.#keep) this.#note(this.#file.remove());
    this.#file = undefined;
    this.#held = 0;
    this.#spilledBytes = 0;
    this.#spilledRecords = 0;
    this.#last.owner = this.#last.value = undefined;
  }

  /** The gateway stops: unlink the spill files and the private directory, unless asked to keep them. Records stay readable. */
  removeSpillFiles(): void {
    this.#closed = true;
    if (this.#keep) return;
    this.#note(this.#file?.remove());
    this.#note(this.#dir.remove());
  }

  #note(f: SpillFailure | undefined): void {
    if (f !== undefined) this.#failure ??= f;
  }

  get memory(): RecorderMemory {
    return {
      budgetBytes: this.#budget,
      heldBytes: this.#held,
      spilledBytes: this.#spilledBytes,
      spilledRecords: this.#spilledRecords,
      spillFiles: [...this.#files],
      failure: this.#failure,
    };
  }
}
