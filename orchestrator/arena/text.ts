/**
 * Reading an arena file as UTF-8 text. Invalid bytes are reported with the line they sit on
 * instead of being replaced with U+FFFD, which would silently change billed prompt text. Only
 * regular files are read: opening a FIFO blocks until a writer appears, and a device may never end.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from "node:fs";
import { nonRegularKind } from "../../contract/regular-file.ts";

export type FileText =
  | { readonly kind: "ok"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "invalid"; readonly line: number; readonly reason: string };

/** Counts the 1-based line a position falls on, given the text before it. */
export type LineCounter = (before: string) => number;

export const newlineLines: LineCounter = (before) => before.split("\n").length;

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const notRegular = (kind: string): FileText => ({ kind: "invalid", line: 1, reason: `not a regular file (${kind})` });

/** The bytes of a regular file (symlinks followed), or why there are none. */
function readRegular(file: string): Uint8Array | FileText {
  try {
    // stat first so a device is never opened: opening one can have effects of its own.
    const before = nonRegularKind(statSync(file));
    if (before) return notRegular(before);
    // Non-blocking, and checked again on the descriptor, in case a FIFO took the path's place
    // since the stat: the open then returns at once and the check below refuses it.
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const after = nonRegularKind(fstatSync(fd));
      return after ? notRegular(after) : readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return unreadable(err);
  }
}

/**
 * For cases.json, which nothing here parses (the boundary arena's policy cases, for a separate
 * runner) but a run hashes into its manifest: absent is fine, a FIFO would hang that read.
 */
export function optionalFileProblem(file: string): string | undefined {
  try {
    const kind = nonRegularKind(statSync(file));
    return kind === undefined ? undefined : `not a regular file (${kind})`;
  } catch (err) {
    const read = unreadable(err);
    return read.kind === "invalid" ? read.reason : undefined;
  }
}

function unreadable(err: unknown): FileText {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
  return { kind: "invalid", line: 1, reason: `cannot read file (${code ?? String(err)})` };
}

export function readArenaText(file: string, lineOf: LineCounter = newlineLines): FileText {
  const bytes = readRegular(file);
  if (!(bytes instanceof Uint8Array)) return bytes;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const at = Math.max(0, firstInvalidUtf8(bytes));
    const before = decoder.decode(bytes.subarray(0, at));
    const hex = bytes[at]!.toString(16).padStart(2, "0");
    return { kind: "invalid", line: lineOf(before), reason: `invalid UTF-8 (byte 0x${hex} at offset ${at})` };
  }
  // The reference rejects a BOM; the port may strip it (arena-format.md §1).
  return { kind: "ok", text: text.startsWith("\uFEFF") ? text.slice(1) : text };
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629), or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let trail: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) trail = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      trail = 2;
      if (c === 0xe0) lo = 0xa0; // overlong
      if (c === 0xed) hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      trail = 3;
      if (c === 0xf0) lo = 0x90; // overlong
      if (c === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= trail; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += trail + 1;
  }
  return -1;
}
