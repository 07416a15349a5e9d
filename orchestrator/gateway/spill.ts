/**
 * The recorder's overflow: one append-only file per gateway (per `clear()` generation) holding the
 * bytes of records that did not fit in the memory budget. Records keep only `(offset, length)`
 * and read their bytes back when someone asks for them.
 *
 * Why one file with positional I/O rather than a file per record: a run serves thousands of
 * requests, and one descriptor with `pwrite`/`pread` costs a syscall per record instead of an
 * open/close pair and a directory entry each.
 *
 * Why synchronous I/O: a spilled record must be readable the moment it is recorded (the harness
 * reads records between legs, synchronously), and the write lands in the page cache in a few
 * milliseconds for the largest body the gateway accepts, next to the tens of milliseconds the
 * same request already spent being parsed. An asynchronous write would have to keep the bytes in
 * memory until it finished, which is what the budget exists to avoid.
 *
 * Lifetime: `remove()` (the gateway's `stop()`) unlinks the file, but the descriptor stays open,
 * because the run session snapshots `records()` before it stops the gateway and the probes read
 * the bodies afterwards. The descriptor is closed when this object is garbage — when neither the
 * recorder nor any record snapshot can reach it — and only then does the kernel free the space.
 */
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Why a spill did not happen (the record then stays in memory: nothing is lost, the budget is
 * exceeded), or why a spill file could not be removed at stop (it is then left on disk).
 */
export interface SpillFailure {
  readonly op: "open" | "write" | "remove";
  readonly path: string;
  /** The errno code (`ENOSPC`, `EACCES`, …) or `"UNKNOWN"`. */
  readonly code: string;
  readonly message: string;
}

/** A spilled record could not be read back (the file was truncated or its descriptor closed under us). */
export class SpillReadError extends Error {
  override readonly name = "SpillReadError";
  readonly path: string;
  readonly offset: number;
  readonly length: number;
  /** The errno code, or `"EOF"` when the file is shorter than the record. */
  readonly code: string;

  constructor(file: string, offset: number, length: number, code: string) {
    super(`gateway spill ${file}: cannot read ${length} bytes at ${offset} (${code})`);
    this.path = file;
    this.offset = offset;
    this.length = length;
    this.code = code;
  }
}

/** Where a spilled record's bytes are. */
export interface SpillRef {
  readonly file: SpillFile;
  readonly offset: number;
  readonly length: number;
}

function failure(op: SpillFailure["op"], file: string, e: unknown): SpillFailure {
  const err = e as NodeJS.ErrnoException;
  return { op, path: file, code: typeof err?.code === "string" ? err.code : "UNKNOWN", message: err instanceof Error ? err.message : String(e) };
}

/** A removal that fails (permissions changed under us) is reported, not thrown: stop() must still stop. */
function removing(target: string, rm: () => void): SpillFailure | undefined {
  try {
    rm();
    return undefined;
  } catch (e) {
    return failure("remove", target, e);
  }
}

/** Closes a spill file's descriptor once the file object is unreachable (see the module comment). */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing to release.
  }
});

/**
 * Where spill files go: the caller's directory (created on first use, never removed: it is not
 * ours), or a private temporary directory created on first use and removed by {@link remove}.
 */
export class SpillDir {
  readonly #given: string | undefined;
  #private: string | undefined;

  constructor(dir: string | undefined) {
    this.#given = dir;
  }

  /** Creates the directory if needed; throws the fs error. */
  resolve(): string {
    if (this.#given !== undefined) {
      mkdirSync(this.#given, { recursive: true });
      return this.#given;
    }
    this.#private ??= mkdtempSync(path.join(tmpdir(), "arena-gateway-spill-"));
    return this.#private;
  }

  /** The private directory, if one was made (the caller's is left in place). */
  remove(): SpillFailure | undefined {
    return this.#private === undefined ? undefined : removing(this.#private, () => rmSync(this.#private as string, { recursive: true, force: true }));
  }
}

export class SpillFile {
  readonly path: string;
  readonly #fd: number;
  #end = 0;

  /** Opens a new, private (0600) file in `dir`; throws the fs error. */
  constructor(dir: string) {
    this.path = path.join(dir, `gateway-${process.pid}-${randomBytes(6).toString("hex")}.spill`);
    this.#fd = openSync(this.path, "wx+", 0o600);
    closer.register(this, this.#fd);
  }

  /** Appends `bytes`; returns where they are, or the failure (the file is unchanged as far as records go). */
  append(bytes: Uint8Array): SpillRef | SpillFailure {
    const offset = this.#end;
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(this.#fd, bytes, done, bytes.length - done, offset + done);
    } catch (e) {
      // A partial write is overwritten by the next append: #end only moves on success.
      return failure("write", this.path, e);
    }
    this.#end += bytes.length;
    return { file: this, offset, length: bytes.length };
  }

  read(offset: number, length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    let done = 0;
    try {
      while (done < length) {
        const n = readSync(this.#fd, out, done, length - done, offset + done);
        if (n === 0) throw new SpillReadError(this.path, offset, length, "EOF");
        done += n;
      }
    } catch (e) {
      if (e instanceof SpillReadError) throw e;
      throw new SpillReadError(this.path, offset, length, (e as NodeJS.ErrnoException).code ?? "UNKNOWN");
    }
    return out;
  }

  /** Unlink the file; the open descriptor keeps existing records readable until it is garbage. */
  remove(): SpillFailure | undefined {
    return removing(this.path, () => rmSync(this.path, { force: true }));
  }
}

export function openSpillFile(dir: SpillDir): SpillFile | SpillFailure {
  let where = "(spill directory)";
  try {
    where = dir.resolve();
    return new SpillFile(where);
  } catch (e) {
    return failure("open", where, e);
  }
}

export function isSpillFailure(x: SpillRef | SpillFailure | SpillFile): x is SpillFailure {
  return "op" in x;
}
