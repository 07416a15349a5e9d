/**
 * What a path that is not a regular file is, in words for a message: the arena reader and the
 * corpus reader refuse FIFOs, devices and directories before opening them (a FIFO would block a
 * read forever; opening a device can have effects of its own). Here, where both sides may import it.
 */
import type { Stats } from "node:fs";

/** `undefined` for a regular file (or a symlink to one: stat follows it). */
export function nonRegularKind(s: Stats): string | undefined {
  if (s.isFile()) return undefined;
  if (s.isDirectory()) return "a directory";
  if (s.isFIFO()) return "a FIFO";
  if (s.isCharacterDevice()) return "a character device";
  if (s.isBlockDevice()) return "a block device";
  return s.isSocket() ? "a socket" : "an unknown kind of file";
}
