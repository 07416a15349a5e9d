/**
 * A worker's stdout/stderr log, bounded: a chatty or hostile framework cannot fill the disk, and
 * the tail — what explains a crash — is what is kept. Text passes through secret redaction line
 * by line, so a key echoed by the provider never lands in a log.
 */
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { redactSecrets } from "../files/redact.ts";

/** Per worker log; twice this triggers a rewrite that keeps the last `capBytes`. */
export const LOG_CAP_BYTES = 2 * 1024 * 1024;
/** A line longer than this is written out unfinished rather than held back forever. */
const MAX_PENDING = 64 * 1024;

export class CappedLog {
  readonly file: string;
  private readonly capBytes: number;
  private pending = "";
  private size = 0;

  constructor(file: string, capBytes = LOG_CAP_BYTES) {
    this.file = file;
    this.capBytes = capBytes;
    try {
      // Created up front: one file per worker started, even a silent one, says how many ran.
      appendFileSync(file, "");
      this.size = statSync(file).size;
    } catch {
      this.size = 0;
    }
  }

  /** Append raw output; only complete lines are written (a key split across chunks stays whole). */
  write(chunk: string | Buffer): void {
    this.pending += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    const cut = this.pending.lastIndexOf("\n");
    if (cut === -1 && this.pending.length < MAX_PENDING) return;
    const end = cut === -1 ? this.pending.length : cut + 1;
    this.append(this.pending.slice(0, end));
    this.pending = this.pending.slice(end);
  }

  /** A line of the harness's own (protocol log messages). */
  line(text: string): void {
    this.append(`${text}\n`);
  }

  flush(): void {
    if (this.pending) this.append(this.pending);
    this.pending = "";
  }

  private append(text: string): void {
    const clean = redactSecrets(text);
    try {
      appendFileSync(this.file, clean);
      this.size += Buffer.byteLength(clean);
      if (this.size > 2 * this.capBytes) this.truncateToTail();
    } catch {
      // A log that cannot be written must not take the run down; the item record keeps the failure.
    }
  }

  private truncateToTail(): void {
    const whole = readFileSync(this.file);
    let start = whole.length - this.capBytes;
    const newline = whole.indexOf(0x0a, start);
    if (newline !== -1 && newline < whole.length - 1) start = newline + 1;
    const marker = `[log truncated: kept the last ${whole.length - start} of ${whole.length} bytes]\n`;
    writeFileSync(this.file, Buffer.concat([Buffer.from(marker), whole.subarray(start)]));
    this.size = Buffer.byteLength(marker) + whole.length - start;
  }
}
