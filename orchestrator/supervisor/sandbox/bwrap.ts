/**
 * The bubblewrap command line for one sealed worker. Pure: the plan in, the argument list out,
 * so its shape is unit-tested without starting anything.
 *
 * - The whole tree is bound read-only. Over it, the plan's `mounts` (view.ts, private-area.ts):
 *   host folders bound read-write at another path (a throwaway layer over the repository, the temp
 *   dir and the output roots; the worker's private slot over its adapter's checkpoint folder) and
 *   paths bound back read-only over those layers. Then the writable directories, read-write at
 *   their own paths (the worker sees the paths the orchestrator handed it).
 * - A fresh /dev and /proc, own PID namespace (`--die-with-parent`: the sandbox dies with the
 *   orchestrator, and when the worker exits bwrap's init exits and the kernel kills everything
 *   left in the namespace, whatever session or process group it made for itself).
 * - With `sealNetwork`, an own network namespace: only loopback, on which the bridge preload
 *   (bridge-preload.cjs) listens; see bridge.ts.
 * - /run is masked with an empty read-only tmpfs when nothing the worker needs lives there: it is
 *   where the host's Unix sockets (docker, dbus, systemd) usually are, and a Unix socket on a
 *   read-only mount is still connectable.
 */
import { BASE_FLAGS } from "./mode.ts";

/** A host folder bound read-write at `at`, or a host path bound back read-only at its own path. */
export type Mount = { readonly kind: "layer"; readonly host: string; readonly at: string } | { readonly kind: "readable"; readonly at: string };

export interface SandboxPlan {
  /** Bound read-write at the same path; each must exist. */
  readonly writable: readonly string[];
  /** Layers and read-only paths over the read-only root (default none: the whole tree visible). */
  readonly mounts?: readonly Mount[];
  /** The worker's working directory inside the sandbox. */
  readonly cwd: string;
  readonly sealNetwork: boolean;
  /** Mask /run (the caller checked nothing needed is under it). */
  readonly maskRun: boolean;
}

export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = [...BASE_FLAGS];
  if (plan.sealNetwork) args.push("--unshare-net");
  if (plan.maskRun) args.push("--tmpfs", "/run", "--remount-ro", "/run");
  // Sorted by where they land, so a folder is mounted before anything inside it (a later mount
  // wins on overlap); bwrap makes each mount point inside the layer it lands in.
  const mounts: { at: string; args: string[] }[] = [
    ...(plan.mounts ?? []).map((m) => ({ at: m.at, args: m.kind === "layer" ? ["--bind", m.host, m.at] : ["--ro-bind-try", m.at, m.at] })),
    ...[...new Set(plan.writable)].map((dir) => ({ at: dir, args: ["--bind", dir, dir] })),
  ];
  mounts.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  for (const m of mounts) args.push(...m.args);
  args.push("--chdir", plan.cwd);
  return args;
}

/** True when `child` is `parent` or inside it (both absolute, resolved). */
export function within(child: string, parent: string): boolean {
  if (parent === "/") return true;
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}
