/**
 * Run and resume on ADK's own `Runner`: one invocation per leg over an in-memory session, the cap
 * as `runConfig.maxLlmCalls` (counted per invocation, so every leg gets the full budget, as the
 * baseline's does), and the pause as a tool confirmation answered with a function response. At a
 * pause the session's events go to the item's checkpoint directory (store.ts); a resume in any
 * process rebuilds the session from them.
 */
import { randomUUID } from "node:crypto";
import { BasePlugin, InMemorySessionService, Runner as AdkRunner, createEvent, type BaseAgent, type Event } from "@google/adk";
import type { AdapterConfig, AgentResultInput, Json, WorkItem } from "../../../contract/protocol.ts";
import type { Decision, Runner } from "../../../contract/adapter.ts";
import { CONFIRMATION_CALL, isErrorEvent, summarise } from "./leg.ts";
import { loadSession, parseHandle, saveSession, type SessionHandle } from "./store.ts";

const APP = "agentic-arena";
const USER = "arena";

/**
 * ADK catches a model's (or a tool lookup's) exception and yields only its message as an error
 * event; this plugin keeps the Error itself, so the leg's error keeps its class (a timeout stays a
 * timeout). It returns nothing, so ADK's own handling goes on unchanged.
 */
class ErrorKeeper extends BasePlugin {
  readonly errors: Error[] = [];
  constructor() {
    super("arena_error_keeper");
  }
  override async onModelErrorCallback({ error }: { error: Error }): Promise<undefined> {
    this.errors.push(error);
    return undefined;
  }
}

function sessionIdFor(itemId: string): string {
  return `${itemId.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64)}-${randomUUID()}`;
}

export interface AdkRunnerOptions {
  readonly config: AdapterConfig;
  readonly root: BaseAgent;
}

type UserContent = NonNullable<Parameters<AdkRunner["runAsync"]>[0]["newMessage"]>;

export function buildAdkRunner({ config, root }: AdkRunnerOptions): Runner {
  async function leg(item: WorkItem, sessionId: string, restored: readonly Event[], message: UserContent): Promise<AgentResultInput> {
    const sessions = new InMemorySessionService();
    const session = await sessions.createSession({ appName: APP, userId: USER, sessionId });
    // Events come back as plain JSON; createEvent restores what ADK expects of an event object.
    for (const event of restored) await sessions.appendEvent({ session, event: createEvent(event) });
    const keeper = new ErrorKeeper();
    const runner = new AdkRunner({ appName: APP, agent: root, sessionService: sessions, plugins: [keeper] });
    const events: Event[] = [];
    const runConfig = { maxLlmCalls: config.maxToolIterations };
    let thrown: Error | undefined;
    try {
      for await (const event of runner.runAsync({ userId: USER, sessionId, newMessage: message, runConfig })) {
        events.push(event);
        // An error event is the leg's end, as an exception would be: ADK itself would go on (to the
        // next model call after a failed tool lookup, to the next stage of a SequentialAgent).
        if (isErrorEvent(event)) break;
      }
    } catch (err) {
      // Outside ADK's own error events (a request processor raising, say): keep the usage served so far.
      thrown = err instanceof Error ? err : new Error(String(err));
    }
    const { pause, ...result } = summarise({ events, errors: keeper.errors, maxCalls: config.maxToolIterations });
    if (thrown) return { ...result, suspended: false, error: `${thrown.name}: ${thrown.message}`, raw: { stack: thrown.stack ?? "" } };
    if (!pause) return result;
    if (item.checkpointDir === "") return { ...result, suspended: false, error: "cannot pause: this item has no checkpoint directory" };
    const stored = (await sessions.getSession({ appName: APP, userId: USER, sessionId }))!.events;
    const handle: SessionHandle = {
      session_id: sessionId,
      session_file: saveSession(item.checkpointDir, sessionId, stored),
      confirmation_ids: pause.ids,
      events: stored.length,
    };
    return { ...result, resume_state: { ...handle } as unknown as Json };
  }

  return {
    run: (item) => leg(item, sessionIdFor(item.id), [], { role: "user", parts: [{ text: item.input }] }),
    async resume(item: WorkItem, state: Json, decision: Decision) {
      const handle = parseHandle(state);
      if (typeof handle === "string") return { error: `cannot resume: ${handle}` };
      const events = loadSession(item.checkpointDir, handle);
      if (typeof events === "string") return { error: `cannot resume: ${events}` };
      // The decision is the confirmation's answer: ADK then runs the held tool (approve) or rejects it.
      const parts = handle.confirmation_ids.map((id) => ({
        functionResponse: { id, name: CONFIRMATION_CALL, response: { confirmed: decision === "approve" } },
      }));
      return leg(item, handle.session_id, events, { role: "user", parts });
    },
  };
}
