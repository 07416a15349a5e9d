/**
 * What the worker host reports of a thrown error (workers/cause-chain.ts), from errors Node 24
 * itself produces: the endpoint each link names, an AggregateError's `errors` (a dual-stack
 * connect), and the protocol's bounds, so the message always validates.
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { ErrorMessage } from "../../contract/protocol-replies.ts";
import { causeChain } from "../../workers/cause-chain.ts";
import { closedBaseUrl } from "../support/closed-port.ts";

const valid = (causes: unknown) => ErrorMessage.safeParse({ type: "error", job: "j1", error: "e", causes, adapterSeconds: 0 }).success;

/** A connect to a name that resolves to both loopback addresses, as happy eyeballs makes it. */
function dualStackRefusal(port: number): Promise<Error> {
  const lookup = (_host: string, options: { all?: boolean }, done: (...args: unknown[]) => void) =>
    options.all ? done(null, [{ address: "127.0.0.1", family: 4 }, { address: "::1", family: 6 }]) : done(null, "127.0.0.1", 4);
  return new Promise((resolve) => net.connect({ host: "helper.test", port, lookup, autoSelectFamily: true } as net.NetConnectOpts).once("error", resolve));
}

describe("causeChain", () => {
  it("fetch refused: the TypeError, then the syscall error with its address and port", async () => {
    const err = await fetch(await closedBaseUrl()).catch((e: unknown) => e);
    const chain = causeChain(err);
    expect(chain).toEqual([
      { name: "TypeError", message: "fetch failed" },
      { name: "Error", message: "connect ECONNREFUSED 127.0.0.1:2", code: "ECONNREFUSED", address: "127.0.0.1", port: 2 },
    ]);
    expect(valid(chain)).toBe(true);
  });

  it("a dual-stack refusal: the AggregateError (empty message, no address) is followed by each address tried", async () => {
    const aggregate = await dualStackRefusal(2);
    expect(aggregate.name).toBe("AggregateError");
    const chain = causeChain(new TypeError("fetch failed", { cause: aggregate }));
    expect(chain.slice(0, 2)).toEqual([
      { name: "TypeError", message: "fetch failed" },
      { name: "AggregateError", message: "", code: "ECONNREFUSED" },
    ]);
    // Where IPv6 loopback is missing, ::1 fails with another code, but still names itself.
    expect(chain.slice(2).map((c) => [c.address, c.port])).toEqual([["127.0.0.1", 2], ["::1", 2]]);
    expect(valid(chain)).toBe(true);
  });

  it("a socket error names the socket's remote end; a failed lookup its host name", () => {
    const closed = Object.assign(new Error("other side closed"), { name: "SocketError", code: "UND_ERR_SOCKET", socket: { localAddress: "127.0.0.1", localPort: 50000, remoteAddress: "127.0.0.1", remotePort: 41234 } });
    expect(causeChain(closed)).toEqual([{ name: "SocketError", message: "other side closed", code: "UND_ERR_SOCKET", address: "127.0.0.1", port: 41234 }]);
    const lookup = Object.assign(new Error("getaddrinfo ENOTFOUND helper.internal"), { code: "ENOTFOUND", syscall: "getaddrinfo", hostname: "helper.internal" });
    expect(causeChain(lookup)).toEqual([{ name: "Error", message: "getaddrinfo ENOTFOUND helper.internal", code: "ENOTFOUND", host: "helper.internal" }]);
  });

  it("stays within the protocol: at most 8 links, a cycle once, out-of-range endpoints left out", () => {
    const a: any = new Error("a");
    const b: any = new Error("b", { cause: a });
    a.cause = b;
    expect(causeChain(a).map((c) => c.message)).toEqual(["a", "b"]);
    let deep: Error = new Error("0");
    for (let i = 1; i < 20; i++) deep = new Error(String(i), { cause: deep });
    expect(causeChain(deep)).toHaveLength(8);
    const odd = Object.assign(new Error("x"), { address: "h".repeat(300), port: 70000, hostname: "" });
    const chain = causeChain(odd);
    expect(chain).toEqual([{ name: "Error", message: "x" }]);
    expect(valid(causeChain(new AggregateError(Array.from({ length: 20 }, (_, i) => new Error(String(i))))))).toBe(true);
  });
});
