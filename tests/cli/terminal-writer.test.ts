/**
 * The CLI's writer to stdout/stderr (cli/terminal.ts): it writes until the stream fails, then drops
 * every later write instead of letting the failure (EPIPE when a `| head` reader exits) kill the run.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { terminalWriter } from "../../orchestrator/cli/terminal.ts";

/** A stream that keeps what it is given, and fails with EPIPE on demand. */
function pipe() {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      written.push(String(chunk));
      done();
    },
  });
  const fail = () => stream.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
  return { stream, written, fail };
}

describe("terminalWriter", () => {
  it("writes until the stream fails, then drops writes; the failure is reported once and is not thrown", () => {
    const { stream, written, fail } = pipe();
    const closed: string[] = [];
    const write = terminalWriter(stream, { onClosed: (err) => closed.push((err as NodeJS.ErrnoException).code ?? "") });
    write("one\n");
    fail();
    fail();
    write("two\n");
    expect(written).toEqual(["one\n"]);
    expect(closed).toEqual(["EPIPE"]);
  });

  it("a destroyed stream is not written to", () => {
    const { stream, written } = pipe();
    const write = terminalWriter(stream);
    stream.destroy();
    expect(() => write("late\n")).not.toThrow();
    expect(written).toEqual([]);
  });
});
