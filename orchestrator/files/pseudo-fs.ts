/**
 * Output roots on a kernel's pseudo filesystem (`ARENA_OUTPUT_ROOT=/proc`) are refused before any
 * folder is made. There a recursive `mkdirSync` never returns: `mkdir /proc/runs` fails with
 * ENOENT although `/proc` exists, so Node's recursion climbs to `/proc` and back down forever, at
 * 100% CPU and deaf to SIGINT (the loop is synchronous). Two tests, either one enough: where the
 * nearest existing folder really is (`/proc`, `/sys`, `/dev`), and what `statfs` says it is on (a
 * bind mount or a symlink elsewhere can put procfs under any name).
 */
import { realpathSync, statfsSync } from "node:fs";
import path from "node:path";

/** Magic numbers of `statfs(2)` `f_type` (linux/magic.h) for filesystems no file can be written to. */
const PSEUDO_TYPES: ReadonlyMap<number, string> = new Map([
  [0x9fa0, "proc"],
  [0x62656572, "sysfs"],
  [0x1373, "devtmpfs"],
  [0x1cd1, "devpts"],
  [0x27e0eb, "cgroup"],
  [0x63677270, "cgroup2"],
  [0x73636673, "securityfs"],
  [0x64626720, "debugfs"],
  [0x74726163, "tracefs"],
  [0x62656570, "configfs"],
  [0xcafe4a11, "bpf"],
  [0x6165676c, "pstore"],
]);

/** Kernel trees, by path: `/dev` is often a plain tmpfs in a container, so its type alone says nothing. */
const PSEUDO_TREES = ["/proc", "/sys", "/dev"];
/** The one place under `/dev` meant for files (POSIX shared memory, a tmpfs). */
const WRITABLE_UNDER_DEV = "/dev/shm";

const within = (dir: string, tree: string) => dir === tree || dir.startsWith(`${tree}/`);

/** The deepest folder of `dir`'s path that exists, symlinks resolved (what a mkdir would start from). */
function nearestExisting(dir: string): string {
  let at = path.resolve(dir);
  for (;;) {
    try {
      return realpathSync(at);
    } catch {
      const up = path.dirname(at);
      if (up === at) return at;
      at = up;
    }
  }
}

/**
 * Why `dir` cannot hold output (`is on /proc, a kernel pseudo filesystem`), or `undefined` when it
 * is an ordinary place (which may still refuse writes: that is probed before the first item).
 */
export function pseudoFilesystemProblem(dir: string): string | undefined {
  const real = nearestExisting(dir);
  const tree = PSEUDO_TREES.find((t) => within(real, t) && !within(real, WRITABLE_UNDER_DEV));
  if (tree) return `is under ${tree}, a kernel pseudo filesystem: nothing can be written there`;
  let type: number | undefined;
  try {
    type = Number(statfsSync(real).type);
  } catch {
    return undefined; // no answer: the write probe will say what is wrong
  }
  const name = PSEUDO_TYPES.get(type);
  return name === undefined ? undefined : `is on ${name}, a kernel pseudo filesystem: nothing can be written there`;
}
