/**
 * Ctrl-C and SIGTERM stop a run in order instead of killing it: the first signal aborts (the run
 * stops scheduling, gives in-flight items a grace period, kills the workers, writes what finished);
 * a second one exits at once. Workers run in their own process groups, so a terminal's Ctrl-C
 * reaches only the orchestrator.
 */
import { exitForSignal } from "./exit-codes.ts";

export interface Interrupt {
  readonly signal: AbortSignal;
  /** The signal that aborted the run, if one did. */
  received(): NodeJS.Signals | undefined;
  dispose(): void;
}

export function onInterrupt(say: (line: string) => void): Interrupt {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const handler = (signal: NodeJS.Signals) => {
    if (received) {
      say(`arena: ${signal} again: exiting now`);
      process.exit(exitForSignal(signal));
    }
    received = signal;
    say(`arena: ${signal}: stopping — in-flight items get a few seconds, then the run is written up (again to exit now)`);
    controller.abort();
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}
