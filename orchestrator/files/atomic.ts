/**
 * Outputs are written whole or not at all: to a temp file in the same directory, then renamed
 * over the target (rename is atomic within one filesystem). An interrupt or a full disk leaves
 * either the old file or the new one, never a 0-byte scorecard beside last run's CSV. Text is
 * redacted on the way out.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { naming } from "./fs-error.ts";
import { redactSecrets } from "./redact.ts";

export function writeFileAtomic(file: string, text: string): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx");
    writeSync(fd, redactSecrets(text));
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw naming(file, err);
  }
}
