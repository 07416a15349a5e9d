/**
 * Ctrl-C, SIGTERM and SIGHUP stop a run in order instead of killing it: the first signal aborts
 * (the run stops scheduling, gives in-flight items a grace period, kills the workers, writes what
 * finished); a second one exits at once. Workers run in their own process groups, so a terminal's
 * Ctrl-C reaches only the orchestrator. SIGHUP is the terminal closing under the run (an ssh drop,
 * a closed window): Node's default for it is to die on the spot, which would leave no interrupted
 * record and no resume hint, so it is handled like Ctrl-C.
 */
import { exitForSignal } from "./exit-codes.ts";

/** The signals that stop a run in order (exit-codes.ts maps each to its exit code). */
export const HANDLED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

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
  for (const name of HANDLED) process.on(name, handler);
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      for (const name of HANDLED) process.off(name, handler);
    },
  };
}
