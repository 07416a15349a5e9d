/**
 * What a sealed worker can see of the filesystem. The root stays read-only as a whole (the
 * runtime, system libraries, certificates), but the places where the run's data lives are
 * covered: the repository, the temp dir and every output root the run writes. Each is covered by
 * a throwaway writable layer, an empty host folder mounted over it, so a write there succeeds
 * into the layer, never reaches the real folder, and is found by the next inspection (see
 * private-area.ts) instead of vanishing as an EROFS the worker may swallow. Then only what a
 * worker needs is bound back read-only: the installed packages (`node_modules/`, the Python
 * `.venv/`), `contract/`, the worker host and
 * adapters (`workers/`), the Python semantics (`packages/`), the adapter's own folder when it
 * lives elsewhere, the corpus file and whatever the caller names (the bridge's sockets, the
 * compile cache). Not `arenas/` (datasets, mock scripts) nor any other arena folder the run
 * loads, `runs/`, `results/`, other checkpoints, journals, logs or `.env`.
 *
 * Pure: paths in, mounts out, so the shape is unit-tested without starting anything.
 */
import path from "node:path";
import { within } from "./bwrap.ts";

/** The repository folders every worker reads (the host imports from these only). */
export const WORKER_TREE = ["node_modules", ".venv", "contract", "workers", "packages", "package.json"] as const;

export interface ViewRequest {
  readonly repo: string;
  readonly tmp: string;
  /** Further folders to cover: the run's output roots and arenas' folders. */
  readonly hidden: readonly string[];
  /** The adapter module the worker loads. */
  readonly module: string;
  readonly corpusPath: string;
  /** Further paths to bind back read-only (sockets' folder, compile cache, a test's host script). */
  readonly readable: readonly string[];
}

export interface SealedView {
  /** Folders covered by a throwaway layer, outermost first. */
  readonly covered: readonly string[];
  /** Paths bound back read-only over the layers. */
  readonly readable: readonly string[];
}

/** Where an adapter's code lives, read back: its folder, and for a fixture the shared fixture support. */
function adapterCode(repo: string, module: string): string[] {
  const dir = path.dirname(path.resolve(module));
  if (WORKER_TREE.some((p) => within(dir, path.join(repo, p)))) return [];
  if (within(dir, path.join(repo, "fixtures"))) return [dir, path.join(repo, "fixtures", "support")];
  return [dir];
}

export function sealedView(req: ViewRequest): SealedView {
  const repo = path.resolve(req.repo);
  const covered = [repo, path.resolve(req.tmp), ...req.hidden.map((p) => path.resolve(p))];
  // A root inside another covered one is covered already; `/` is never covered (the runtime lives there).
  const outer = [...new Set(covered)]
    .filter((p) => p !== "/")
    .filter((p, _, all) => !all.some((o) => o !== p && within(p, o)))
    .sort();
  const readable = [
    ...WORKER_TREE.map((p) => path.join(repo, p)),
    ...adapterCode(repo, req.module),
    path.resolve(req.corpusPath),
    ...req.readable.map((p) => path.resolve(p)),
  ];
  // Only what a layer hides needs binding back; anything else is visible through the read-only root.
  const hidden = [...new Set(readable)].filter((p) => outer.some((o) => within(p, o) && p !== o)).sort();
  return { covered: outer, readable: hidden };
}
