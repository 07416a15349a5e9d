/**
 * The process's stdout and stderr as the CLI writes them. A reader can go away before the run
 * ends — `arena bench | head -1`, a closed terminal, a CI log collector that died — and Node then
 * reports the failed write (EPIPE, or EIO from a hung-up terminal) as an `error` event on the
 * stream; with no listener that event kills the process mid-run, losing the records, the report
 * and the exit code. Here a stream that failed once is written no more: output stops, the run
 * goes on and writes its folder, and the exit code is still the run's own.
 */

/** Options of {@link terminalWriter}. */
export interface TerminalWriterOptions {
  /** Called once, with the error, when the stream first fails (default: nothing). */
  readonly onClosed?: (err: Error) => void;
}

/** Writes to `stream` until it fails, then drops every later write. */
export function terminalWriter(stream: NodeJS.WritableStream & { destroyed?: boolean }, options: TerminalWriterOptions = {}): (text: string) => void {
  let closed = false;
  stream.on("error", (err: Error) => {
    if (!closed) options.onClosed?.(err);
    closed = true;
  });
  return (text) => {
    if (closed || stream.destroyed === true) return;
    stream.write(text);
  };
}
