/**
 * Where a record's numbers came from, carried in every record so it can be read on its own: the
 * command, the code (git SHA), the provider host (never the key), the configuration, the data's
 * hashes and the machine. A comparison published without these cannot be checked.
 */
import os from "node:os";
import { execaSync } from "execa";
import { z } from "zod";

export const ProvenanceSchema = z.object({
  /** The command line as typed (after `arena`). */
  command: z.array(z.string()),
  /** The commit the harness ran from; null outside a git checkout. */
  git_sha: z.string().nullable(),
  /** The live provider's host (`api.example.com`); null in mock mode. Never the key. */
  provider_host: z.string().nullable(),
  /** Every configuration value except the key, as the manifest records it. */
  config: z.record(z.string(), z.union([z.string(), z.number()])),
  /** Items in flight at once. */
  concurrency: z.number().int().positive(),
  /** `--no-restart` (measurement only): durable pauses resumed on the same process, not a fresh one. */
  no_restart: z.literal(true).optional(),
  /** `--items-per-worker` when over 1: items one worker carried at once on non-durable arenas, each on its own seat. */
  items_per_worker: z.number().int().min(2).optional(),
  /** The arena's files (arena.toml, dataset, script) and the search corpus, hashed. */
  arena_sha256: z.string(),
  corpus_sha256: z.string(),
  machine: z.object({
    cores: z.number().int().positive(),
    memory_bytes: z.number().int().positive(),
    node: z.string(),
    platform: z.string(),
  }),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** `git rev-parse HEAD` in `dir`; null when git or the checkout is missing. */
export function gitSha(dir: string): string | null {
  const result = execaSync("git", ["rev-parse", "HEAD"], { cwd: dir, reject: false, timeout: 5_000 });
  return result.exitCode === 0 && /^[0-9a-f]{40}$/.test(String(result.stdout).trim()) ? String(result.stdout).trim() : null;
}

/** The host of a live base URL, without credentials or path; null when there is none. */
export function providerHost(mode: "mock" | "live", baseUrl: string): string | null {
  if (mode === "mock") return null;
  try {
    return new URL(baseUrl).host;
  } catch {
    return null;
  }
}

export function machine(): Provenance["machine"] {
  return { cores: os.availableParallelism(), memory_bytes: os.totalmem(), node: process.versions.node, platform: `${process.platform}-${process.arch}` };
}
