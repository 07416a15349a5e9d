// An opened item: per framework its checks, answer, error, violations, figures and transcript.
// The details block is parsed on the first open; a transcript only when its section is expanded.

function detailDialog() {
  let dialog = document.getElementById("item-detail");
  if (!dialog) {
    dialog = h("dialog", { id: "item-detail" });
    document.body.append(dialog);
  }
  return dialog;
}

function openItem(row, seriesIndex) {
  const details = lazyJson("report-details");
  const dialog = detailDialog();
  const close = h("button", { type: "button", className: "close", onclick: () => dialog.close() }, "close");
  // Only the frameworks that ran the item (replaceChildren would print a null as text).
  const blocks = row.cells.flatMap((c, i) => (c ? [seriesDetail(details[c.detail], c, i === seriesIndex)] : []));
  dialog.replaceChildren(h("header", {}, h("h2", {}, `${row.arena} / ${row.itemId}`, row.repeat ? ` (repeat ${row.repeat})` : ""), close), ...blocks);
  if (!dialog.open) dialog.showModal();
}

function seriesDetail(d, cell, open) {
  const checks = table(
    ["Check", "OK", "Detail"],
    d.checks.map((c) => [c.type, h("td", { className: c.ok ? "ok" : "bad" }, c.ok ? "yes" : "no"), c.detail]),
    "plain checks",
  );
  const figures = `${d.promptTokens} prompt + ${d.completionTokens} completion tokens · ${d.llmCalls} LLM call(s) · ${fmt(d.latencyS, 3)} s · ${d.legs} leg(s)`;
  return h(
    "details",
    { className: `series-detail st-${cell.status}`, open, "data-series": d.series },
    h("summary", {}, `${seriesLabel(d.series)} — ${cell.status === "unserved" ? "not served by the provider" : cell.status}`),
    d.error ? h("div", { className: "error-box" }, h("strong", {}, `error (${d.errorClass})`), pre(d.error)) : null,
    h("h4", {}, "Checks"),
    checks,
    h("h4", {}, "Answer"),
    pre(d.answer || "(empty)", "answer"),
    h("p", {}, `Tool calls: ${d.toolCalls.join(", ") || "none"}`),
    h("p", { className: "note" }, figures),
    d.violations.length
      ? [h("h4", {}, "Rule violations"), table(["Rule", "Leg", "Request", "Detail"], d.violations.map((v) => [v.rule, String(v.leg), v.request === undefined ? "—" : String(v.request), v.detail]), "plain")]
      : null,
    d.transcript ? transcriptSection(d) : h("p", { className: "note" }, "No transcript recorded for this item."),
  );
}

function transcriptSection(d) {
  const box = h("details", { className: "transcript" }, h("summary", {}, "Transcript"));
  box.addEventListener("toggle", () => {
    if (!box.open || box.dataset.rendered) return;
    box.dataset.rendered = "1";
    const lane = lazyJson(`transcripts-${d.transcript.lane}`);
    const t = lane.items[d.transcript.key];
    append(box, t.legs.map((leg, i) => h("div", { className: "leg" }, h("h4", {}, `Leg ${i + 1}`), leg.exchanges.map((x, j) => exchangeView(x, j, lane.blocks)))));
  });
  return box;
}

function block(blocks, id) {
  return id in blocks ? blocks[id] : `(missing block ${id})`;
}

function exchangeView(x, index, blocks) {
  const { messages, ...params } = x.request.body;
  const tools = x.request.tools_block !== undefined ? block(blocks, x.request.tools_block) : undefined;
  return h(
    "div",
    { className: "exchange" },
    h("h5", {}, `Request ${index + 1}`),
    h("p", { className: "params" }, JSON.stringify(params)),
    tools ? h("details", {}, h("summary", {}, `tools (block ${x.request.tools_block}): ${toolNames(tools)}`), pre(prettyJson(tools))) : null,
    (Array.isArray(messages) ? messages : []).map((m) => messageView(m, blocks)),
    h("h5", {}, "Reply"),
    replyView(x.reply),
    x.usage ? h("p", { className: "usage" }, `served usage: ${x.usage.prompt_tokens} prompt + ${x.usage.completion_tokens} completion tokens`) : null,
  );
}

function toolNames(tools) {
  return Array.isArray(tools) ? tools.map((t) => (t && t.function && t.function.name) || "?").join(", ") : "(not a list)";
}

function contentText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p.text === "string" ? p.text : prettyJson(p))).join("\n");
  return content === null || content === undefined ? "" : prettyJson(content);
}

function toolCallsView(calls) {
  if (!Array.isArray(calls) || calls.length === 0) return null;
  return h(
    "ul",
    { className: "tool-calls" },
    calls.map((c) => h("li", {}, h("code", {}, (c.function && c.function.name) || "?"), c.id ? ` (${c.id})` : "", pre(prettyArguments(c.function && c.function.arguments), "arguments"))),
  );
}

function messageView(m, blocks) {
  if (typeof m.content_block === "string") {
    const text = contentText(block(blocks, m.content_block));
    return h("div", { className: `msg role-${m.role}` }, h("details", {}, h("summary", {}, `${m.role} (block ${m.content_block}, ${text.length} chars)`), pre(text)));
  }
  return h(
    "div",
    { className: `msg role-${m.role}` },
    h("span", { className: "role" }, m.role, m.tool_call_id ? ` → ${m.tool_call_id}` : ""),
    m.content !== undefined && m.content !== null ? pre(contentText(m.content)) : null,
    toolCallsView(m.tool_calls),
  );
}

function replyView(reply) {
  if ("stream" in reply) return h("div", { className: "msg role-assistant" }, h("span", { className: "role" }, "streamed"), pre(reply.stream));
  const body = reply.json;
  if (!body || !Array.isArray(body.choices)) return pre(prettyJson(body));
  return body.choices.map((c) =>
    h(
      "div",
      { className: "msg role-assistant" },
      h("span", { className: "role" }, `assistant${c.finish_reason ? ` (${c.finish_reason})` : ""}`),
      c.message && c.message.content ? pre(contentText(c.message.content)) : null,
      toolCallsView(c.message && c.message.tool_calls),
    ),
  );
}
