/**
 * Installed size of a Python family: the distributions its catalogue entry names, as
 * workers/python/requirements.in pins them (extras included), their dependency closure in the
 * workers' interpreter (Requires-Dist with markers evaluated for those extras), and `du -skl` of the
 * top-level folders and files each distribution installed into site-packages (bytecode included),
 * each counted once per family. The Python standard library is the Python harness's own, like the
 * Node harness's packages on the TypeScript side, so it is left out.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { pythonExecutable } from "../../orchestrator/supervisor/python-host.ts";
import { REQUIREMENTS } from "../python-env/env.ts";

export interface PythonFamilySize {
  readonly packages: number;
  readonly bytes: number;
}

const normal = (name: string) => name.toLowerCase().replace(/[._]/g, "-");

/** Each pinned requirement of requirements.in by its normalised distribution name. */
export function pinnedRequirements(text: string = readFileSync(REQUIREMENTS, "utf8")): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==\S+/.exec(line);
    if (m) out.set(normal(m[1]!), line.trim());
  }
  return out;
}

const CLOSURE = `
import json, os, sys
from importlib import metadata
from packaging.requirements import Requirement
def norm(n): return n.lower().replace("_", "-").replace(".", "-")
families = json.loads(sys.argv[1])
out = {}
for family, reqs in families.items():
    seen, queue = {}, [(Requirement(r), None) for r in reqs]
    while queue:
        req, extra = queue.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra or ""}):
            continue
        name = norm(req.name)
        extras = set(req.extras)
        if name in seen and extras <= seen[name][1]:
            continue
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            continue
        have = seen.get(name, (dist, set()))[1]
        seen[name] = (dist, have | extras)
        for r in dist.requires or []:
            dep = Requirement(r)
            if dep.marker is None or dep.marker.evaluate({"extra": ""}):
                queue.append((dep, None))
            for e in extras:
                if dep.marker is not None and dep.marker.evaluate({"extra": e}):
                    queue.append((dep, e))
    paths = set()
    for dist, _ in seen.values():
        for f in dist.files or []:
            top = f.parts[0]
            if top in ("..", "__pycache__") or top.endswith(".pth"):
                continue
            paths.add(str(dist.locate_file(top)))
    out[family] = {"packages": len(seen), "paths": sorted(p for p in paths if os.path.exists(p))}
print(json.dumps(out))
`;

/** family → requirement strings, → its size; an empty map where Python or its packages are missing. */
export function pythonFamilySizes(families: ReadonlyMap<string, readonly string[]>): Map<string, PythonFamilySize> {
  const pins = pinnedRequirements();
  const asked = Object.fromEntries([...families].map(([f, pkgs]) => [f, pkgs.map((p) => pins.get(normal(p)) ?? p)]));
  let data: Record<string, { packages: number; paths: string[] }>;
  try {
    data = JSON.parse(execFileSync(pythonExecutable(), ["-s", "-c", CLOSURE, JSON.stringify(asked)], { encoding: "utf8" }));
  } catch {
    return new Map();
  }
  const out = new Map<string, PythonFamilySize>();
  for (const [family, { packages, paths }] of Object.entries(data)) {
    const bytes = paths.length === 0 ? 0 : execFileSync("du", ["-skcl", "--", ...paths], { encoding: "utf8" })
      .trim().split("\n").at(-1)!.split("\t")[0]!;
    out.set(family, { packages, bytes: Number(bytes) * 1024 });
  }
  return out;
}
