/**
 * The HTTP side of the gateway (gateway.md §2, §8, §9): the listener and its lifecycle, routing,
 * deadlines for slow clients, and the loopback records endpoint. A completion's own path (attempt,
 * fault, stall, body limit) is intake.ts; decisions about replies live in reply.ts.
 *
 * One pipeline for mock and live (answer.ts): record → check → answer. {@link createGateway} answers
 * from the script; the live proxy (proxy.ts) runs the same pipeline with an upstream answerer and
 * a worker key the check step enforces.
 *
 * Port additions:
 * - Per-worker tag: a base URL `http://127.0.0.1:<port>/t/<tag>.<token>/v1` attributes every
 *   record to `<tag>`; routing still matches path suffixes, so the prefix is invisible to clients.
 *   The token makes the tag the holder's own (identity.ts): a wrong one is refused.
 * - Records endpoint: `GET /__arena/<secret>/records[?tag=<tag>]` returns the recorder's snapshot as
 *   Python-format JSON (read it with {@link fetchRecords}). `<secret>` is random per gateway and is
 *   only handed to the harness, so an adapter cannot read the usage it is checked against; any other
 *   GET path, including a wrong secret, gets the ordinary `{"status": "ok"}`.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { Socket } from "node:net";
import { dumpsPy } from "@agentic-arena/py-semantics";
import { scriptedAnswerer, type Answerer } from "./answer.ts";
import { connectionMark, requestStart, type ConnectionMark } from "./arrival.ts";
import { FaultPlan } from "./faults.ts";
import { checkingIntervalMs, CLOSE, guarded, onClientError, send, TIMEOUT_BODY } from "./http-util.ts";
import { responseIdGenerator } from "./ids.ts";
import { completionIntake } from "./intake.ts";
import { resolveOptions, type GatewayOptions, type ResolvedOptions } from "./options.ts";
import { Recorder, type LiveAttempt, type RecorderOptions } from "./recorder.ts";
import { recordsToWire } from "./records-wire.ts";
import { IDENTITY_REFUSED_BODY, Identities, type IdentityPolicy, type RefusedRequest } from "./identity.ts";
import { registerInProcess } from "./in-process.ts";
import { routeOf, taggedBaseUrl } from "./route.ts";
import { compileScript } from "./script.ts";
import { finish } from "./settle.ts";
import { carriesKey, UNAUTHORIZED_BODY } from "./worker-key.ts";

export interface GatewayAddress {
  /** `http://127.0.0.1:<port>/v1`: untagged requests. */
  readonly baseUrl: string;
  /** The records endpoint (carries the secret); for the harness only. */
  readonly recordsUrl: string;
  readonly port: number;
}

export interface Gateway {
  /** Listen on 127.0.0.1 (never another interface). */
  start(): Promise<GatewayAddress>;
  /** Close the listener and destroy every open connection, stalled ones included; resolves promptly. */
  stop(): Promise<void>;
  readonly recorder: Recorder;
  /** The address once started; throws before `start()`. */
  readonly address: GatewayAddress;
  /** Base URL whose requests are all recorded under `tag` (it carries the tag's token: hand it to its holder only). */
  baseUrlFor(tag: string): string;
  /** Requests refused for their identity (identity.ts), in arrival order. */
  readonly refused: readonly RefusedRequest[];
  /**
   * Serve a connection accepted elsewhere in this process (the sandbox bridge hands over a sealed
   * worker's socket: in-process.ts), as if this gateway had accepted it now.
   */
  adopt(socket: Socket): void;
}

const RECORDS_PREFIX = "/__arena/";

/** The mock gateway: the shared pipeline answering from the script. */
export function createGateway(options: GatewayOptions): Gateway {
  const opts: ResolvedOptions = resolveOptions(options);
  const answerer = scriptedAnswerer({ script: compileScript(options.script), options: opts, nextResponseId: responseIdGenerator() });
  return createPipeline({
    options: opts,
    recorder: { budgetBytes: options.recordBudgetBytes, spillDir: options.spillDir, keepSpillFiles: options.keepSpillFiles },
    answerer,
    ...(options.identity ? { identity: options.identity } : {}),
  });
}

export interface PipelineOptions {
  readonly options: ResolvedOptions;
  readonly recorder: RecorderOptions;
  readonly answerer: Answerer;
  /**
   * The key every request must carry (`Authorization: Bearer <key>`); others get 401 and never
   * reach the answerer. Unset (the mock, as gateway.md §2 says) = authentication is ignored.
   */
  readonly workerKey?: string;
  /** Whose requests are accepted (default: a standalone gateway's, see identity.ts). */
  readonly identity?: IdentityPolicy;
}

/** The request pipeline both gateways run: record → check → answer. */
export function createPipeline(pipeline: PipelineOptions): Gateway {
  const { options: opts, answerer, workerKey } = pipeline;
  const recorder = new Recorder(pipeline.recorder);
  const identities = new Identities(pipeline.identity);
  const secret = randomBytes(16).toString("hex");
  const recordsPath = `${RECORDS_PREFIX}${secret}/records`;
  const sockets = new Set<Socket>();
  /**
   * The response each connection is on (its last request's) and, for a completion, its attempt:
   * what a timeout answers. A plain map overwritten per request and emptied when the socket
   * closes, so it holds one entry per open connection.
   */
  const current = new Map<Socket, { res: http.ServerResponse; attempt: LiveAttempt | undefined }>();
  /** Adopted connections whose first request has not arrived yet: when each was accepted (arrival.ts). */
  const accepted = new WeakMap<Socket, ConnectionMark>();
  let address: GatewayAddress | undefined;
  let withdraw: (() => void) | undefined;
  let stopped: Promise<void> | undefined;
  const intake = completionIntake({ options: opts, recorder, faults: new FaultPlan(opts.faults), answerer, stopping: () => stopped !== undefined });

  function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const mark = accepted.get(req.socket);
    if (mark !== undefined) accepted.delete(req.socket);
    const on: { res: http.ServerResponse; attempt: LiveAttempt | undefined } = { res, attempt: undefined };
    current.set(req.socket, on);
    const route = routeOf(req.url ?? "/");
    if (req.method === "GET" && route.pathname === recordsPath) {
      // The harness's endpoint: reached by its secret, never by the worker key.
      req.resume();
      const tag = new URLSearchParams(route.query).get("tag");
      send(res, 200, dumpsPy(recordsToWire(recorder.records(tag ?? undefined))));
      return;
    }
    // Before anything is recorded: a request that is not its tag's must not count for the tag.
    const refusal = identities.check(route);
    if (refusal !== undefined) {
      req.resume();
      identities.refuse(route, refusal, req.socket);
      send(res, 403, IDENTITY_REFUSED_BODY);
      return;
    }
    const authorized = workerKey === undefined || carriesKey(req.headers, workerKey);
    if (req.method === "POST" && route.pathname.endsWith("/chat/completions")) {
      on.attempt = intake.take(req, res, route, authorized, requestStart(mark));
      return;
    }
    if (!authorized) {
      req.resume();
      send(res, 401, UNAUTHORIZED_BODY);
      return;
    }
    answerer.other(req, res, route);
  }

  const server = http.createServer(
    {
      // Without deadlines a client that sends headers and then nothing holds its connection (and
      // a body buffer) forever. Deliberate stalls are added to the request deadline (options.ts).
      headersTimeout: opts.headersTimeoutMs,
      requestTimeout: opts.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(opts),
      noDelay: true,
      keepAliveTimeout: 30_000,
    },
    (req, res) => {
      res.on("error", () => {});
      req.on("error", () => {});
      guarded(res, () => handle(req, res));
    },
  );
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => {
      sockets.delete(s);
      current.delete(s);
    });
  });
  function adopt(socket: Socket): void {
    accepted.set(socket, connectionMark());
    server.emit("connection", socket);
  }

  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) =>
    onClientError(err, socket, current.get(socket)?.res, (res) => {
      const attempt = current.get(socket)?.attempt;
      if (attempt !== undefined) finish(res, attempt, "rejected", 408, TIMEOUT_BODY, CLOSE);
      else send(res, 408, TIMEOUT_BODY, CLOSE);
    }),
  );

  return {
    recorder,
    get address(): GatewayAddress {
      if (address === undefined) throw new Error("gateway not started");
      return address;
    },
    baseUrlFor(tag: string): string {
      if (address === undefined) throw new Error("gateway not started");
      return taggedBaseUrl(address.port, tag, identities.tokenFor(tag));
    },
    get refused() {
      return identities.refused;
    },
    adopt,
    start(): Promise<GatewayAddress> {
      if (address !== undefined) return Promise.resolve(address);
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(opts.port, "127.0.0.1", () => {
          server.off("error", reject);
          const port = (server.address() as { port: number }).port;
          address = { baseUrl: `http://127.0.0.1:${port}/v1`, recordsUrl: `http://127.0.0.1:${port}${recordsPath}`, port };
          withdraw = registerInProcess(port, { adopt });
          resolve(address);
        });
      });
    },
    stop(): Promise<void> {
      stopped ??= new Promise<void>((resolve) => {
        // No new connection is handed over once stopping: the bridge forwards to the closed port, and is refused.
        withdraw?.();
        intake.close();
        answerer.close();
        // Nothing is recorded after this; the records stay readable (spill.ts, "Lifetime").
        recorder.removeSpillFiles();
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      return stopped;
    },
  };
}
