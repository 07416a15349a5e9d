/**
 * What the Python workers' interpreter has installed, asked of that interpreter itself (the one
 * python-host.ts starts workers with), without loading any adapter: its version and the installed
 * version of each named distribution. One short child process for the whole list.
 */
import { spawnSync } from "node:child_process";
import { pythonExecutable } from "./python-host.ts";

export interface PythonInventory {
  /** `3.11.7`; null when no interpreter answered. */
  readonly python: string | null;
  /** Distribution name → installed version, null when not installed. */
  readonly versions: ReadonlyMap<string, string | null>;
}

const PROBE = [
  "import json, sys",
  "from importlib import metadata",
  "def version(name):",
  "    try:",
  "        return metadata.version(name)",
  "    except metadata.PackageNotFoundError:",
  "        return None",
  "names = json.loads(sys.argv[1])",
  "print(json.dumps({'python': '.'.join(map(str, sys.version_info[:3])), 'versions': {n: version(n) for n in names}}))",
].join("\n");

export function pythonInventory(names: readonly string[]): PythonInventory {
  const none: PythonInventory = { python: null, versions: new Map(names.map((n) => [n, null])) };
  const probe = spawnSync(pythonExecutable(), ["-s", "-c", PROBE, JSON.stringify(names)], { encoding: "utf8", timeout: 20_000 });
  if (probe.status !== 0) return none;
  try {
    const data = JSON.parse(probe.stdout) as { python: string; versions: Record<string, string | null> };
    return { python: data.python, versions: new Map(names.map((n) => [n, data.versions[n] ?? null])) };
  } catch {
    return none;
  }
}
