// An item's transcript as chat turns: system, user, assistant (with its tool calls and their
// arguments as sent), tool results. Each request repeats the whole history, so only what is new
// in it is drawn; a request whose history does not continue the previous one is drawn whole, and
// said so. Every exchange's raw JSON (the request as it was sent, and the reply) is one click away.

function transcriptBlock(blocks, id) {
  return id in blocks ? blocks[id] : `(missing block ${id})`;
}

// The request body as sent: the inverse of transcript.ts's compactRequest.
function expandedRequest(request, blocks) {
  const body = { ...request.body };
  if (Array.isArray(body.messages)) {
    body.messages = body.messages.map((m) => {
      if (!m || typeof m.content_block !== "string") return m;
      const { content_block, ...others } = m;
      return { ...others, content: transcriptBlock(blocks, content_block) };
    });
  }
  if (request.tools_block !== undefined) body.tools = transcriptBlock(blocks, request.tools_block);
  return body;
}

// A recorder keeps the reply as the completion body (`choices`) or as the assistant message itself.
function replyMessages(reply) {
  if ("stream" in reply) return [{ role: "assistant", content: reply.stream, streamed: true }];
  const body = reply.json;
  if (body && Array.isArray(body.choices)) return body.choices.map((c) => ({ ...(c.message || {}), role: "assistant", finish: c.finish_reason }));
  if (body && typeof body === "object" && (body.role || body.tool_calls || "content" in body)) return [{ ...body, role: "assistant" }];
  return [];
}

function messageText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p.text === "string" ? p.text : prettyJson(p))).join("\n");
  return content === null || content === undefined ? "" : prettyJson(content);
}

function argumentsAreObject(text) {
  try {
    const value = typeof text === "string" ? JSON.parse(text) : text;
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

// Every call the gateway served in the item's replies: what the model asked for, arguments verbatim.
function servedToolCalls(transcript) {
  const calls = [];
  transcript.legs.forEach((leg, l) =>
    leg.exchanges.forEach((x, r) => {
      for (const m of replyMessages(x.reply)) {
        for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
          const args = c.function ? c.function.arguments : undefined;
          calls.push({ leg: l + 1, request: r + 1, id: c.id || "", name: (c.function && c.function.name) || "?", args: typeof args === "string" ? args : prettyJson(args) });
        }
      }
    }),
  );
  return calls;
}

function toolCallView(call) {
  const fn = call.function || {};
  const raw = typeof fn.arguments === "string" ? fn.arguments : prettyJson(fn.arguments);
  const valid = argumentsAreObject(fn.arguments);
  return h(
    "div",
    { className: `tool-call${valid ? "" : " malformed"}` },
    h("span", { className: "role" }, "tool call"),
    " ",
    h("code", {}, fn.name || "?"),
    call.id ? h("span", { className: "muted" }, ` ${call.id}`) : null,
    valid ? null : h("span", { className: "bad" }, " — arguments are not a JSON object, shown as sent"),
    pre(valid ? prettyArguments(raw) : raw, "arguments"),
  );
}

function turnView(m, blocks) {
  const role = String(m.role || "?");
  if (typeof m.content_block === "string") {
    const text = messageText(transcriptBlock(blocks, m.content_block));
    return h("div", { className: `turn role-${role}` }, h("details", {}, h("summary", {}, h("span", { className: "role" }, role), ` ${text.split("\n")[0].slice(0, 120)} (${text.length} chars)`), pre(text)));
  }
  const label = role === "tool" ? "tool result" : role;
  const about = role === "tool" ? `${m.name ? ` ${m.name}` : ""}${m.tool_call_id ? ` → ${m.tool_call_id}` : ""}` : `${m.streamed ? " (streamed)" : ""}${m.finish ? ` (${m.finish})` : ""}`;
  const text = messageText(m.content);
  return h(
    "div",
    { className: `turn role-${role}` },
    h("span", { className: "role" }, label),
    about ? h("span", { className: "muted" }, about) : null,
    text ? pre(text) : null,
    (Array.isArray(m.tool_calls) ? m.tool_calls : []).map(toolCallView),
  );
}

function rawJsonToggle(x, blocks) {
  const box = h("div", { className: "raw-json" });
  const button = h("button", { type: "button", className: "raw-toggle" }, "raw JSON");
  button.addEventListener("click", () => {
    if (box.childNodes.length) return void box.replaceChildren();
    box.append(pre(prettyJson({ request: expandedRequest(x.request, blocks), reply: x.reply, ...(x.usage ? { usage: x.usage } : {}) }), "raw"));
  });
  return [button, box];
}

// A message's calls as names and arguments, to tell an echoed turn that changed them: arguments
// that parse are compared as JSON (a framework may re-space them), others as the text sent.
function callsText(m) {
  const args = (a) => {
    try {
      return JSON.stringify(typeof a === "string" ? JSON.parse(a) : a);
    } catch {
      return a;
    }
  };
  return JSON.stringify((Array.isArray(m.tool_calls) ? m.tool_calls : []).map((c) => [c.function && c.function.name, c.function && args(c.function.arguments)]));
}

function toolNamesOf(tools) {
  return Array.isArray(tools) ? tools.map((t) => (t && t.function && t.function.name) || "?").join(", ") : "(not a list)";
}

function exchangeTurns(x, index, previous, blocks) {
  const messages = Array.isArray(x.request.body.messages) ? x.request.body.messages : [];
  let fresh = messages;
  let note = null;
  if (previous) {
    const before = previous.messages.map((m) => JSON.stringify(m));
    const continues = before.every((m, i) => i < messages.length && JSON.stringify(messages[i]) === m);
    if (continues) {
      fresh = messages.slice(before.length);
      // The previous reply, as the framework echoed it back, was drawn already as that reply;
      // unless its calls came back changed (a malformed call sent back as `{}`), which is drawn.
      if (fresh.length && fresh[0].role === "assistant" && previous.replied) {
        const echoed = fresh[0];
        fresh = fresh.slice(1);
        if (callsText(echoed) !== previous.calls) note = [h("p", { className: "bad" }, "The framework sent the previous reply back with its tool calls changed:"), turnView(echoed, blocks)];
      }
    } else note = h("p", { className: "bad" }, "This request does not continue the previous one's history; it is drawn whole.");
  }
  const tools = x.request.tools_block !== undefined && (!previous || previous.tools !== x.request.tools_block) ? transcriptBlock(blocks, x.request.tools_block) : undefined;
  const usage = x.usage ? ` · served ${x.usage.prompt_tokens} prompt + ${x.usage.completion_tokens} completion tokens` : "";
  return h(
    "div",
    { className: "exchange" },
    h("div", { className: "exchange-head" }, `request ${index + 1}${usage} `, rawJsonToggle(x, blocks)),
    note,
    tools ? h("details", { className: "tools" }, h("summary", {}, `tools offered: ${toolNamesOf(tools)}`), pre(prettyJson(tools))) : null,
    fresh.map((m) => turnView(m, blocks)),
    replyMessages(x.reply).map((m) => turnView(m, blocks)),
  );
}

function chatView(transcript, blocks) {
  return h(
    "div",
    { className: "chat" },
    transcript.legs.map((leg, l) => {
      let previous = null;
      const turns = leg.exchanges.map((x, i) => {
        const view = exchangeTurns(x, i, previous, blocks);
        const replies = replyMessages(x.reply);
        previous = { messages: Array.isArray(x.request.body.messages) ? x.request.body.messages : [], replied: replies.length > 0, calls: replies.length ? callsText(replies[0]) : "", tools: x.request.tools_block };
        return view;
      });
      return h("div", { className: "leg" }, transcript.legs.length > 1 ? h("h4", {}, `Leg ${l + 1}`) : null, turns);
    }),
  );
}
