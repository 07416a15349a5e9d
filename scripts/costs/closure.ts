/**
 * From `pnpm list --json --depth Infinity --prod` to installed sizes: the dependency graph keyed
 * by package directory (so one directory is one package, however many times the tree lists it),
 * the closure of an adapter's packages minus the harness's own closure, and the size arithmetic
 * in which a package shared by several adapters is counted once. Pure: sizes are handed in.
 */

/** One node of pnpm's JSON tree (only the fields used here). */
export interface PnpmNode {
  readonly from?: string;
  readonly version?: string;
  readonly path?: string;
  /** pnpm prints a repeated subtree once; later occurrences say `deduped` and list no dependencies. */
  readonly deduped?: boolean;
  readonly dependencies?: Readonly<Record<string, PnpmNode>>;
  readonly optionalDependencies?: Readonly<Record<string, PnpmNode>>;
}

export interface PackageNode {
  readonly name: string;
  readonly version: string;
  /** Directories of its dependencies (as pnpm resolved them for this directory). */
  readonly deps: Set<string>;
}

export interface DependencyGraph {
  /** Package directory → the package and its dependencies. */
  readonly nodes: ReadonlyMap<string, PackageNode>;
  /** The project's own dependencies: name → directory. */
  readonly topLevel: ReadonlyMap<string, string>;
}

function childrenOf(node: PnpmNode): [string, PnpmNode][] {
  return [...Object.entries(node.dependencies ?? {}), ...Object.entries(node.optionalDependencies ?? {})];
}

/** The graph of a pnpm tree; children listed under any occurrence of a directory are merged. */
export function graphFromPnpmList(project: PnpmNode): DependencyGraph {
  const nodes = new Map<string, { name: string; version: string; deps: Set<string> }>();
  const topLevel = new Map<string, string>();
  const visit = (name: string, node: PnpmNode): string | undefined => {
    if (!node.path) return undefined;
    let entry = nodes.get(node.path);
    if (!entry) nodes.set(node.path, (entry = { name, version: node.version ?? "", deps: new Set() }));
    for (const [childName, child] of childrenOf(node)) {
      const dir = visit(childName, child);
      if (dir !== undefined) entry.deps.add(dir);
    }
    return node.path;
  };
  for (const [name, node] of childrenOf(project)) {
    const dir = visit(name, node);
    if (dir !== undefined) topLevel.set(name, dir);
  }
  return { nodes, topLevel };
}

/** Every directory reachable from `start` (start included). */
export function closure(start: Iterable<string>, graph: DependencyGraph): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const dir = queue.pop()!;
    if (seen.has(dir)) continue;
    seen.add(dir);
    for (const dep of graph.nodes.get(dir)?.deps ?? []) queue.push(dep);
  }
  return seen;
}

/**
 * What a set of packages adds on top of the harness: the closure of `names` minus the closure of
 * `harnessNames`. `missing` lists names that are not dependencies of the project.
 */
export function addedPackages(
  names: readonly string[],
  harnessNames: readonly string[],
  graph: DependencyGraph,
): { dirs: Set<string>; missing: string[] } {
  const dirsOf = (ns: readonly string[]) => ns.flatMap((n) => (graph.topLevel.has(n) ? [graph.topLevel.get(n)!] : []));
  const harness = closure(dirsOf(harnessNames), graph);
  const dirs = new Set([...closure(dirsOf(names), graph)].filter((d) => !harness.has(d)));
  return { dirs, missing: names.filter((n) => !graph.topLevel.has(n)) };
}

export interface GroupSize {
  readonly packages: number;
  readonly bytes: number;
  /** Of those, the packages (and their bytes) that some other group also adds. */
  readonly sharedPackages: number;
  readonly sharedBytes: number;
}

/**
 * Sizes per group (an adapter and its variants) and in total: each directory counted once per
 * group, and once in the total however many groups add it. A directory without a size (not
 * installed: another platform's optional binary) counts as no package.
 */
export function groupSizes(
  groups: ReadonlyMap<string, ReadonlySet<string>>,
  sizeOf: ReadonlyMap<string, number>,
): { perGroup: Map<string, GroupSize>; total: { packages: number; bytes: number } } {
  const owners = new Map<string, number>();
  for (const dirs of groups.values()) for (const d of dirs) if (sizeOf.has(d)) owners.set(d, (owners.get(d) ?? 0) + 1);
  const perGroup = new Map<string, GroupSize>();
  for (const [name, dirs] of groups) {
    let packages = 0, bytes = 0, sharedPackages = 0, sharedBytes = 0;
    for (const d of dirs) {
      const size = sizeOf.get(d);
      if (size === undefined) continue;
      packages += 1;
      bytes += size;
      if (owners.get(d)! > 1) {
        sharedPackages += 1;
        sharedBytes += size;
      }
    }
    perGroup.set(name, { packages, bytes, sharedPackages, sharedBytes });
  }
  let bytes = 0;
  for (const d of owners.keys()) bytes += sizeOf.get(d)!;
  return { perGroup, total: { packages: owners.size, bytes } };
}
