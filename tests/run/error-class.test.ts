/** Item errors are classified from the cause chain first, the text second: an outage is never the framework's failure. */
import { describe, expect, it } from "vitest";
import type { ErrorCause } from "../../contract/protocol-replies.ts";
import { classifyAdapterError, classifyWorkerFailure } from "../../orchestrator/run/error-class.ts";
import { WorkerFailure } from "../../orchestrator/supervisor/failure.ts";

const failure = (kind: WorkerFailure["kind"]): WorkerFailure => new WorkerFailure(kind, "m");
/** What the worker host reports for undici's `fetch failed` around a refused connect. */
const refused = (address: string, port: number): ErrorCause[] => [
  { name: "TypeError", message: "fetch failed" },
  { name: "Error", message: `connect ECONNREFUSED ${address}:${port}`, code: "ECONNREFUSED", address, port },
];
const GATEWAY = "http://127.0.0.1:41234/t/vanilla__tool_use__w0/v1";

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
    expect(classifyAdapterError("Error: connect ECONNREFUSED 127.0.0.1:9", [], ["http://127.0.0.1:9/v1"])).toBe("infra");
    expect(classifyAdapterError("max tool iterations exceeded")).toBe("adapter");
    expect(classifyAdapterError("KeyError: 'dur-01'")).toBe("adapter");
  });
});

describe("a network failure is the gateway's only when it names the gateway", () => {
  it("refused at the gateway's address and port: infra; at any other endpoint: the adapter's", () => {
    expect(classifyAdapterError("TypeError: fetch failed", refused("127.0.0.1", 41234), [GATEWAY])).toBe("infra");
    expect(classifyAdapterError("TypeError: fetch failed", refused("127.0.0.1", 2), [GATEWAY])).toBe("adapter");
    expect(classifyAdapterError("TypeError: fetch failed", refused("10.0.0.7", 41234), [GATEWAY])).toBe("adapter");
    // No gateway known: a named endpoint cannot be shown to be one.
    expect(classifyAdapterError("TypeError: fetch failed", refused("127.0.0.1", 41234))).toBe("adapter");
  });

  it("whatever the code: a reset, a failed lookup, a connect timeout elsewhere are the adapter's too", () => {
    const reset: ErrorCause = { name: "Error", message: "read ECONNRESET", code: "ECONNRESET", address: "127.0.0.1", port: 5999 };
    expect(classifyAdapterError("TypeError: fetch failed", [reset], [GATEWAY])).toBe("adapter");
    const lookup: ErrorCause = { name: "Error", message: "getaddrinfo ENOTFOUND helper.internal", code: "ENOTFOUND", host: "helper.internal" };
    expect(classifyAdapterError("TypeError: fetch failed", [lookup], [GATEWAY])).toBe("adapter");
    const slow: ErrorCause = { name: "Error", message: "connect ETIMEDOUT 10.0.0.7:443", code: "ETIMEDOUT", address: "10.0.0.7", port: 443 };
    expect(classifyAdapterError("TypeError: fetch failed", [slow], [GATEWAY])).toBe("adapter");
    expect(classifyAdapterError("TypeError: fetch failed", [{ ...slow, message: "connect ETIMEDOUT 127.0.0.1:41234", address: "127.0.0.1", port: 41234 }], [GATEWAY])).toBe("timeout");
  });

  it("a sealed worker's bridge closing on it, at the gateway's port, is the gateway's", () => {
    const closed: ErrorCause = { name: "SocketError", message: "other side closed", code: "UND_ERR_SOCKET", address: "127.0.0.1", port: 41234 };
    expect(classifyAdapterError("TypeError: fetch failed", [{ name: "TypeError", message: "fetch failed" }, closed], [GATEWAY])).toBe("infra");
    expect(classifyAdapterError("TypeError: fetch failed", [{ ...closed, port: 5999 }], [GATEWAY])).toBe("adapter");
  });

  it("dual-stack: an AggregateError's addresses all have to be the gateway's", () => {
    const tried = (v4: number, v6: number): ErrorCause[] => [
      { name: "TypeError", message: "fetch failed" },
      { name: "AggregateError", message: "", code: "ECONNREFUSED" },
      { name: "Error", message: `connect ECONNREFUSED 127.0.0.1:${v4}`, code: "ECONNREFUSED", address: "127.0.0.1", port: v4 },
      { name: "Error", message: `connect ECONNREFUSED ::1:${v6}`, code: "ECONNREFUSED", address: "::1", port: v6 },
    ];
    expect(classifyAdapterError("TypeError: fetch failed", tried(41234, 41234), ["http://localhost:41234/v1"])).toBe("infra");
    // A gateway on the 127.0.0.1 literal is never dialled as ::1: the adapter resolved a name of its own.
    expect(classifyAdapterError("TypeError: fetch failed", tried(41234, 41234), [GATEWAY])).toBe("adapter");
    expect(classifyAdapterError("TypeError: fetch failed", tried(5999, 5999), ["http://localhost:41234/v1"])).toBe("adapter");
  });

  it("addresses compare as the resolver sees them: brackets, case, IPv4-mapped IPv6, the scheme's default port", () => {
    expect(classifyAdapterError("x", refused("::1", 8080), ["http://[::1]:8080/v1"])).toBe("infra");
    expect(classifyAdapterError("x", refused("::ffff:127.0.0.1", 41234), [GATEWAY])).toBe("infra");
    expect(classifyAdapterError("x", refused("127.0.0.1", 80), ["http://127.0.0.1/v1"])).toBe("infra");
    expect(classifyAdapterError("x", refused("127.0.0.1", 443), ["http://127.0.0.1/v1"])).toBe("adapter");
  });

  it("the message alone: Node's and undici's wording name the endpoint; prose that names none stays as before", () => {
    expect(classifyAdapterError("Error: connect ECONNREFUSED 127.0.0.1:2", [], [GATEWAY])).toBe("adapter");
    expect(classifyAdapterError("Error: connect ECONNREFUSED 127.0.0.1:41234", [], [GATEWAY])).toBe("infra");
    expect(classifyAdapterError("Error: connect ECONNREFUSED ::1:41234", [], [GATEWAY])).toBe("adapter");
    expect(classifyAdapterError("Error: getaddrinfo ENOTFOUND helper.internal", [], [GATEWAY])).toBe("adapter");
    const connectTimeout = "ConnectTimeoutError: Connect Timeout Error (attempted address: helper.internal:8080, timeout: 10000ms)";
    expect(classifyAdapterError(connectTimeout, [{ name: "ConnectTimeoutError", message: connectTimeout.slice(21), code: "UND_ERR_CONNECT_TIMEOUT" }], [GATEWAY])).toBe("adapter");
    // No endpoint named: issue 20 will tell these apart by what the gateway saw; until then, infra.
    expect(classifyAdapterError("TypeError: fetch failed", [], [GATEWAY])).toBe("infra");
    expect(classifyAdapterError("Error: socket hang up", [{ name: "Error", message: "socket hang up", code: "ECONNRESET" }], [GATEWAY])).toBe("infra");
    expect(classifyAdapterError("APIError: 503", [{ name: "APIError", message: "503", status: 503 }], [GATEWAY])).toBe("infra");
  });
});
