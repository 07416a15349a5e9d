/**
 * Every path the harness writes or deletes is built here, from a root it owns and segments that
 * may come from data (arena ids, item ids, adapter names). A segment that could climb out of the
 * root — `..`, a separator, an absolute path — is refused before any file is touched, so a hostile
 * `arena.toml` cannot aim a recursive delete at the user's home.
 */
import path from "node:path";

/** What an id taken from data may look like when it names a folder or file (arena-format ids too). */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export class UnsafePathError extends Error {
  override readonly name = "UnsafePathError";
  readonly root: string;
  readonly segments: readonly string[];
  constructor(root: string, segments: readonly string[], problem: string) {
    super(`refusing path under ${root}: ${problem}`);
    this.root = root;
    this.segments = segments;
  }
}

export function isSafeId(value: string): boolean {
  return SAFE_ID.test(value) && value !== "." && value !== "..";
}

/**
 * `root/segment/…`, resolved, asserted to stay strictly inside `root`. Each segment must be a
 * safe id; file names with an extension (`scorecard.md`) are safe ids too.
 */
export function inside(root: string, ...segments: readonly string[]): string {
  const base = path.resolve(root);
  for (const s of segments) {
    if (!isSafeId(s)) throw new UnsafePathError(base, segments, `segment ${JSON.stringify(s)} is not a safe name`);
  }
  const full = path.resolve(base, ...segments);
  const rel = path.relative(base, full);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new UnsafePathError(base, segments, `${full} is not inside it`);
  }
  return full;
}
