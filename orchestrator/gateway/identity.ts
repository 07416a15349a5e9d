/**
 * Who a request is from. Each tagged base URL carries a token the gateway issued with it
 * (route.ts), and a request belongs to the tag only when it carries that tag's token. A run's
 * gateways require it: a request with no tag, a tag the gateway never issued, or a token that is
 * not the tag's is refused with 403 before anything is recorded under the tag, so a forged
 * request can neither lower nor raise another worker's figures. What was refused is kept, with the
 * sender where it can be known — the sandbox bridge names the worker each connection comes from,
 * and a token issued for another tag names its holder — for the run to charge.
 *
 * Why a token and not only the connection: the sandbox bridge can name the sender of a sealed
 * worker's connection, but a watched worker (no bwrap) and a live run share the loopback with
 * every process of the machine; the token holds in every mode, and the bridge's name is the
 * second witness where there is one.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Socket } from "node:net";
import type { Route } from "./route.ts";

export interface IdentityPolicy {
  /**
   * Refuse every request without an issued tag and its token (a run's gateways). Without it, a
   * standalone gateway (tests, `arena gateway`) still refuses a wrong token for an issued tag,
   * and accepts untagged requests and tags it never issued, as before tokens existed.
   */
  readonly required: boolean;
  /** Who opened `socket`, when the transport knows (e.g. `vanilla/w3`); undefined otherwise. */
  readonly senderOf?: (socket: Socket) => string | undefined;
}

export interface RefusedRequest {
  /** The tag the request claimed (`""` for none). */
  readonly claimed: string;
  readonly reason: "no identity" | "unknown identity" | "wrong token";
  /** Who sent it, when the transport said. */
  readonly sender?: string;
  /** The tag whose token it carried, when that token was issued for another tag: its holder sent it. */
  readonly heldBy?: string;
}

export const IDENTITY_REFUSED_BODY = JSON.stringify({
  error: { message: "request refused: it does not carry the identity this gateway issued to its sender", type: "forbidden", code: "identity_refused" },
});

export class Identities {
  readonly #tokens = new Map<string, string>();
  readonly #holders = new Map<string, string>();
  readonly #refused: RefusedRequest[] = [];
  readonly #policy: IdentityPolicy;

  constructor(policy: IdentityPolicy = { required: false }) {
    this.#policy = policy;
  }

  /** The token for `tag`: issued once, the same for every later call. */
  tokenFor(tag: string): string {
    let token = this.#tokens.get(tag);
    if (token === undefined) {
      this.#tokens.set(tag, (token = randomBytes(16).toString("hex")));
      this.#holders.set(token, tag);
    }
    return token;
  }

  /** Why `route` must be refused, or undefined when it is the tag's (or the policy lets it through). */
  check(route: Route): RefusedRequest["reason"] | undefined {
    if (route.tag === "") return this.#policy.required ? "no identity" : undefined;
    const issued = this.#tokens.get(route.tag);
    if (issued === undefined) return this.#policy.required ? "unknown identity" : undefined;
    const given = Buffer.from(route.token);
    const expected = Buffer.from(issued);
    return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : "wrong token";
  }

  refuse(route: Route, reason: RefusedRequest["reason"], socket: Socket): void {
    const sender = this.#policy.senderOf?.(socket);
    // Only the holder has its token: a token issued for another tag names who sent the request, in every mode.
    const heldBy = this.#holders.get(route.token);
    this.#refused.push({ claimed: route.tag, reason, ...(sender ? { sender } : {}), ...(heldBy !== undefined && heldBy !== route.tag ? { heldBy } : {}) });
  }

  /** Every refused request so far, in arrival order. */
  get refused(): readonly RefusedRequest[] {
    return [...this.#refused];
  }
}
