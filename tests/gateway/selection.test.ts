import { describe, expect, it } from "vitest";
import type { MockScript } from "../../orchestrator/arena/schemas.ts";
import { assistant, messageOf, startGateway, system, user, type Body, type Started } from "./helpers.ts";

const script: MockScript = {
  scenarios: [
    { match: "Eiffel", deliberate_fault: "", turns: [{ kind: "content", content: "eiffel scenario" }] },
    { match: "eiffel tower", deliberate_fault: "", turns: [{ kind: "content", content: "later, more specific scenario" }] },
    { match: "'type': 'text'", deliberate_fault: "", turns: [{ kind: "content", content: "matched a content-part repr" }] },
    { match: "none", deliberate_fault: "", turns: [{ kind: "content", content: "matched None" }] },
    { match: "no turns here", deliberate_fault: "", turns: [] },
    { match: "", deliberate_fault: "", turns: [{ kind: "content", content: "empty match must never win" }] },
  ],
  default: { turns: [{ kind: "content", content: "the default" }] },
};

const contentOf = async (post: Started["post"], body: Body) => messageOf(await post(body)).get("content");

describe("scenario selection (gateway.md §3)", () => {
  it("matches case-insensitively on the first user message, first scenario in file order", async () => {
    const { post } = await startGateway({ script });
    expect(await contentOf(post, { messages: [user("How tall is the EIFFEL TOWER?")] })).toBe("eiffel scenario");
  });

  it("only the first user message counts; system and later user messages are ignored", async () => {
    const { post } = await startGateway({ script });
    expect(await contentOf(post, { messages: [system("eiffel"), user("hello"), user("eiffel")] })).toBe("the default");
    expect(await contentOf(post, { messages: [system("x"), user("about the eiffel"), user("zzz")] })).toBe("eiffel scenario");
  });

  it("reads non-string content through Python str(): content parts as their repr, null as None", async () => {
    const { post } = await startGateway({ script });
    const parts = [{ type: "text", text: "what is this" }];
    expect(await contentOf(post, { messages: [user(parts)] })).toBe("matched a content-part repr");
    expect(await contentOf(post, { messages: [user(null)] })).toBe("matched None");
    // A user message without content is "" (not "None").
    expect(await contentOf(post, { messages: [{ role: "user" }] })).toBe("the default");
  });

  it("falls back to default, and to the built-in default without one; a scenario without turns says I don't know", async () => {
    const { post } = await startGateway({ script });
    expect(await contentOf(post, { messages: [user("nothing matches")] })).toBe("the default");
    expect(await contentOf(post, { messages: [] })).toBe("the default");
    expect(await contentOf(post, { messages: [user("No Turns Here")] })).toBe("I don't know.");

    const bare = await startGateway({ script: { scenarios: [{ match: "x", turns: [{ content: "x" }] }] } });
    expect(await contentOf(bare.post, { messages: [user("nothing")] })).toBe("I don't know.");
  });

  it("accepts the raw file shape, including a path to mock_script.json", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(tmpdir(), "gw-script-"));
    const file = path.join(dir, "mock_script.json");
    writeFileSync(file, JSON.stringify({ scenarios: [{ match: "Hi", turns: [{ content: "from file" }] }] }));
    const { post } = await startGateway({ script: file });
    expect(await contentOf(post, { messages: [user("hi")] })).toBe("from file");
    expect(await contentOf(post, { messages: [assistant("hi"), user("bye")] })).toBe("I don't know.");
  });
});
