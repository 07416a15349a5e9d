/** Item errors are classified from the cause chain first, the text second: an outage is never the framework's failure. */
import { describe, expect, it } from "vitest";
import { classifyAdapterError, classifyWorkerFailure } from "../../orchestrator/run/error-class.ts";
import { WorkerFailure } from "../../orchestrator/supervisor/failure.ts";

const failure = (kind: WorkerFailure["kind"]): WorkerFailure => new WorkerFailure(kind, "m");

describe("error classes", () => {
  it("worker failures: deadline → timeout, bad message → protocol, crash → adapter, no start → harness", () => {
    expect(classifyWorkerFailure(failure("timed_out"))).toBe("timeout");
    expect(classifyWorkerFailure(failure("invalid_message"))).toBe("protocol");
    expect(classifyWorkerFailure(failure("exited"))).toBe("adapter");
    expect(classifyWorkerFailure(failure("spawn_failed"))).toBe("harness");
  });
  it("a cause chain with a network code or a 5xx status is infra", () => {
    expect(classifyAdapterError("TypeError: fetch failed", [{ name: "TypeError", message: "fetch failed" }, { name: "Error", message: "connect", code: "ECONNREFUSED" }])).toBe("infra");
    expect(classifyAdapterError("InternalServerError: 503 oops", [{ name: "InternalServerError", message: "503 oops", status: 503 }])).toBe("infra");
    expect(classifyAdapterError("X", [{ name: "Error", message: "x", code: "ENOTFOUND" }])).toBe("infra");
  });
  it("a 4xx is the framework's (it sent something the provider refused), as is a rate limit", () => {
    expect(classifyAdapterError("BadRequestError: 400", [{ name: "BadRequestError", message: "400", status: 400 }])).toBe("adapter");
    expect(classifyAdapterError("LLM HTTP 429: slow down")).toBe("adapter");
  });
  it("timeouts, by cause or by text", () => {
    expect(classifyAdapterError("TimeoutError: The operation was aborted due to timeout", [{ name: "TimeoutError", message: "The operation was aborted due to timeout", code: "ABORT_ERR" }])).toBe("timeout");
    expect(classifyAdapterError("APIConnectionTimeoutError: Request timed out.")).toBe("timeout");
  });
  it("text fallbacks for adapters that keep only the message; everything else is the adapter's", () => {
    expect(classifyAdapterError("LLM HTTP 502: <html>Bad Gateway</html>")).toBe("infra");
    expect(classifyAdapterError("Error: connect ECONNREFUSED 127.0.0.1:9")).toBe("infra");
    expect(classifyAdapterError("max tool iterations exceeded")).toBe("adapter");
    expect(classifyAdapterError("KeyError: 'dur-01'")).toBe("adapter");
  });
});
