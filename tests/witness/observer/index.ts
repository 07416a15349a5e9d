/**
 * An adapter that only looks around: everything adapter code can observe of its worker (its
 * environment, argv, working directory, TMPDIR, the config and arena it was built with, the item
 * and checkpoint folder each leg is given, the call stacks its build and legs run on, and every
 * message its process sent or received over the IPC channel since it was loaded), answered as the
 * item's output text, so the run record carries it out without the adapter writing a file. The
 * indistinguishable test compares what it saw in a probe run and in a bench run.
 */
import os from "node:os";
import type { Adapter, WorkItem } from "../../../contract/adapter.ts";

const stack = () => (new Error("observer").stack ?? "").split("\n").slice(1).map((l) => l.trim());

/** A message by its kind (ids and payloads differ per run); a log line and a build's module in full. */
function kind(m: unknown): string {
  const msg = (m ?? {}) as { type?: unknown; level?: unknown; message?: unknown; adapter?: { module?: unknown } };
  if (msg.type === "log") return `log ${String(msg.level)}: ${String(msg.message)}`;
  if (msg.type === "build") return `build ${String(msg.adapter?.module)}`;
  return String(msg.type);
}

// Everything this process sends and hears over IPC from the moment this module is loaded (the
// tap's report, when there was one, was sent right after it): kinds, as a set (lanes and spares
// make the order differ).
const sent = new Set<string>();
const received = new Set<string>();
const send = process.send?.bind(process);
if (send) {
  process.send = ((message: unknown, ...rest: unknown[]) => {
    sent.add(kind(message));
    return (send as (...a: unknown[]) => boolean)(message, ...rest);
  }) as typeof process.send;
}
process.on("message", (m) => received.add(kind(m)));

function around() {
  return { env: { ...process.env }, argv: process.argv, execArgv: process.execArgv, cwd: process.cwd(), tmpdir: os.tmpdir() };
}

const adapter: Adapter = {
  name: "observer",
  libVersion: "test (observes its worker)",
  build(arena, config) {
    const built = { ...around(), config, arena, stack: stack() };
    const leg = async (item: WorkItem) => {
      const sync = stack();
      await Promise.resolve();
      const ipc = { sent: [...sent].sort(), received: [...received].sort() };
      const seen = { built, leg: { ...around(), item, stack: sync, asyncStack: stack() }, ipc };
      return { output_text: JSON.stringify(seen) };
    };
    // Resumable, so pause arenas build it too; it never suspends, so resume never runs.
    return { run: leg, resume: leg };
  },
};
export default adapter;
