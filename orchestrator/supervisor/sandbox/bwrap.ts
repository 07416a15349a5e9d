/**
 * The bubblewrap command line for one sealed worker. Pure: the plan in, the argument list out,
 * so its shape is unit-tested without starting anything.
 *
 * - The whole tree is bound read-only; only the plan's writable directories are bound back
 *   read-write, at the same paths (the worker sees the paths the orchestrator handed it).
 * - A fresh /dev and /proc, own PID namespace (`--die-with-parent`: the sandbox dies with the
 *   orchestrator, and when the worker exits bwrap's init exits and the kernel kills everything
 *   left in the namespace, whatever session or process group it made for itself).
 * - With `sealNetwork`, an own network namespace: only loopback, on which the bridge preload
 *   (bridge-preload.ts) listens; see bridge.ts.
 * - /run is masked with an empty read-only tmpfs when nothing the worker needs lives there: it is
 *   where the host's Unix sockets (docker, dbus, systemd) usually are, and a Unix socket on a
 *   read-only mount is still connectable.
 */
import { BASE_FLAGS } from "./mode.ts";

export interface SandboxPlan {
  /** Bound read-write at the same path; each must exist. */
  readonly writable: readonly string[];
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
  // Sorted, so a directory is bound before anything inside it (a later bind wins on overlap).
  for (const dir of [...new Set(plan.writable)].sort()) args.push("--bind", dir, dir);
  args.push("--chdir", plan.cwd);
  return args;
}

/** True when `child` is `parent` or inside it (both absolute, resolved). */
export function within(child: string, parent: string): boolean {
  if (parent === "/") return true;
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}
