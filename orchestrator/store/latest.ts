/**
 * `runs/latest` points at the newest run folder. Replaced atomically (a new link renamed over the
 * old), so a reader never finds it missing; where symlinks are not allowed it is a one-line file.
 */
import { readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { isRunId } from "./run-id.ts";

export function pointLatestAt(runsDir: string, runId: string): void {
  const link = path.join(runsDir, "latest");
  const temp = path.join(runsDir, `.latest.${randomBytes(4).toString("hex")}`);
  try {
    symlinkSync(runId, temp);
  } catch {
    writeFileSync(temp, `${runId}\n`);
  }
  try {
    renameSync(temp, link);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** The run id `runs/latest` names, if any. */
export function latestRunId(runsDir: string): string | undefined {
  const link = path.join(runsDir, "latest");
  let target: string;
  try {
    target = readlinkSync(link);
  } catch {
    try {
      target = readFileSync(link, "utf8").trim();
    } catch {
      return undefined;
    }
  }
  const id = path.basename(target);
  return isRunId(id) ? id : undefined;
}
