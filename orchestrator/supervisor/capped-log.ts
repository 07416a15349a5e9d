/**
 * A worker's stdout/stderr log, bounded: a chatty or hostile framework cannot fill the disk, and
 * the tail — what explains a crash — is what is kept. Text passes through secret redaction line
 * by line, so a key echoed by the provider never lands in a log.
 *
 * The cap holds on disk at every moment, not just after a clean-up: before a write would take the
 * file past it, the file is rewritten in place with only its newest lines (half the cap, behind a
 * marker line) and the new text. Half, so a flood rewrites the file once per half cap of output
 * rather than at every chunk. Sizes are counted after redaction, in bytes, which is what the disk
 * holds. Each stream keeps its own unfinished line, so the two streams' partial lines are never
 * glued into one (which would also split a key the redaction has to see whole).
 */
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { redactSecrets } from "../files/redact.ts";

/** Per worker log, on disk, the truncation marker included. */
export const LOG_CAP_BYTES = 2 * 1024 * 1024;
/** A line longer than this (in characters) is written out unfinished rather than held back forever. */
const MAX_PENDING = 64 * 1024;
/** Room kept for the marker line: `[log truncated: kept the last N of M bytes]` with 16-digit numbers is 75 bytes. */
const MARKER_BYTES = 96;

/** Where a chunk came from: each source's unfinished line is held apart. */
export type LogSource = "stdout" | "stderr";

interface Pending {
  readonly decoder: StringDecoder;
  text: string;
}

export class CappedLog {
  readonly file: string;
  private readonly capBytes: number;
  private readonly pending = new Map<LogSource, Pending>();
  /** Bytes in the file now (only this object writes it). */
  private size = 0;
  /** Bytes ever logged, after redaction: what the marker says was there. */
  private total = 0;

  constructor(file: string, capBytes = LOG_CAP_BYTES) {
    // Below this the marker would not leave room for any text.
    if (!Number.isInteger(capBytes) || capBytes < 4 * MARKER_BYTES) throw new RangeError(`log cap ${capBytes} is below ${4 * MARKER_BYTES} bytes`);
    this.file = file;
    this.capBytes = capBytes;
    try {
      // Created up front: one file per worker started, even a silent one, says how many ran.
      appendFileSync(file, "");
      this.size = this.total = statSync(file).size;
      if (this.size > this.capBytes) this.rewrite(Buffer.alloc(0));
    } catch {
      this.size = 0;
    }
  }

  /** Append raw output; only complete lines are written (a key split across chunks stays whole). */
  write(chunk: string | Buffer, source: LogSource = "stdout"): void {
    let p = this.pending.get(source);
    if (!p) this.pending.set(source, (p = { decoder: new StringDecoder("utf8"), text: "" }));
    // The decoder holds back a character split across two chunks instead of mangling both halves.
    p.text += typeof chunk === "string" ? chunk : p.decoder.write(chunk);
    const cut = p.text.lastIndexOf("\n");
    if (cut === -1 && p.text.length < MAX_PENDING) return;
    const end = cut === -1 ? p.text.length : cut + 1;
    this.append(p.text.slice(0, end));
    p.text = p.text.slice(end);
  }

  /** A line of the harness's own (protocol log messages). */
  line(text: string): void {
    this.append(`${text}\n`);
  }

  /** Write out every source's unfinished line (the worker is gone). */
  flush(): void {
    for (const p of this.pending.values()) {
      const rest = p.text + p.decoder.end();
      p.text = "";
      if (rest) this.append(rest);
    }
  }

  private append(text: string): void {
    const clean = Buffer.from(redactSecrets(text), "utf8");
    this.total += clean.length;
    try {
      if (this.size + clean.length <= this.capBytes) {
        appendFileSync(this.file, clean);
        this.size += clean.length;
      } else {
        this.rewrite(clean);
      }
    } catch {
      // A log that cannot be written must not take the run down; the item record keeps the failure.
    }
  }

  /** Replace the file with a marker and the newest half cap of (file + `incoming`), starting on a whole line. */
  private rewrite(incoming: Buffer): void {
    const keep = Math.floor(this.capBytes / 2) - MARKER_BYTES;
    const old = this.size > 0 ? readFileSync(this.file) : Buffer.alloc(0);
    const tail = wholeLines(
      incoming.length >= keep ? incoming.subarray(incoming.length - keep) : Buffer.concat([old.subarray(Math.max(0, old.length - (keep - incoming.length))), incoming]),
    );
    const marker = Buffer.from(`[log truncated: kept the last ${tail.length} of ${this.total} bytes]\n`);
    const kept = Buffer.concat([marker, tail]);
    writeFileSync(this.file, kept);
    this.size = kept.length;
  }
}

/**
 * `tail` from its first whole line on (it was cut from the end of the log, so its first line is
 * most likely a fragment); a tail with no line break starts at its first whole UTF-8 character.
 */
function wholeLines(tail: Buffer): Buffer {
  const newline = tail.indexOf(0x0a);
  if (newline !== -1 && newline < tail.length - 1) return tail.subarray(newline + 1);
  let start = 0;
  while (start < tail.length && (tail[start]! & 0xc0) === 0x80) start += 1;
  return tail.subarray(start);
}
