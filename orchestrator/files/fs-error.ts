/**
 * A filesystem refusal on an output root — permissions, a read-only mount, a file where a folder
 * should be, a full disk — is the environment's problem, not a bug: one line naming the path and
 * the cause, never a stack trace.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const CAUSES: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOTDIR: "a path component is not a directory",
  EISDIR: "is a directory",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EEXIST: "already exists",
  EMFILE: "too many open files",
  ENAMETOOLONG: "name too long",
  ELOOP: "too many symbolic links",
};

export class OutputError extends Error {
  override readonly name = "OutputError";
  readonly path: string;
  readonly code: string;
  constructor(file: string, code: string, options?: { cause?: unknown }) {
    super(`cannot write ${file}: ${code} (${CAUSES[code] ?? "filesystem error"})`, options);
    this.path = file;
    this.code = code;
  }
}

/** A Node fs error the user can fix (as opposed to a harness bug that happens to touch a file). */
export function asOutputError(err: unknown): OutputError | undefined {
  if (err instanceof OutputError) return err;
  const e = err as (NodeJS.ErrnoException & { dest?: string }) | null;
  if (!e || typeof e.code !== "string" || !(e.code in CAUSES)) return undefined;
  return new OutputError(e.path ?? e.dest ?? "(unknown path)", e.code, { cause: err });
}

/**
 * `err` as an {@link OutputError} naming `file` when it carries no path of its own: a write on a
 * descriptor (`writeSync(fd)`, the write half of `appendFileSync`) fails with ENOSPC and no path,
 * which said "(unknown path)" mid-run. Anything that is not such an fs error is returned as is.
 */
export function naming(file: string, err: unknown): unknown {
  const e = err as NodeJS.ErrnoException | null;
  if (err instanceof OutputError || !e || typeof e.code !== "string" || !(e.code in CAUSES)) return err;
  return new OutputError(e.path ?? file, e.code, { cause: err });
}

/**
 * Prove `dir` can be written before the first item runs: create it, write a file, remove it. A
 * failure leaves nothing behind — not the probe file (a full disk creates it and then refuses its
 * bytes: the 0-byte `.write-probe-*` that `arena runs` listed as an unreadable run), nor a folder
 * this call created.
 */
export function probeWritable(dir: string): void {
  const probe = path.join(dir, `.write-probe-${randomBytes(4).toString("hex")}`);
  let created: string | undefined;
  try {
    created = mkdirSync(dir, { recursive: true });
    writeFileSync(probe, "probe\n");
    rmSync(probe);
  } catch (err) {
    removeQuietly(created ?? probe);
    const e = err as NodeJS.ErrnoException;
    throw new OutputError(e.path ?? dir, typeof e.code === "string" ? e.code : "EIO", { cause: err });
  }
}

/** Cleanup after a failure already being reported: its own failure would only hide that one. */
export function removeQuietly(target: string): void {
  try {
    rmSync(target, { recursive: true, force: true });
  } catch {
    // nothing more to do: the first error is the one the user needs
  }
}
