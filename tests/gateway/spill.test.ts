/**
 * The recorder's memory budget (README "Records"): bodies past it go to a spill file, read back
 * equal, and the files are gone when the gateway stops. Scaled down from the 80 × 7.5 MB case of
 * the issue (scripts/gateway-bench.ts --section spill measures that one) so the suite stays fast.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SpillReadError } from "../../orchestrator/gateway/index.ts";
import { dumpsPy, toJs, type PyValue } from "@agentic-arena/py-semantics";
import { messageOf, startGateway, toolSpec, user } from "./helpers.ts";

const script = { scenarios: [{ match: "hello", turns: [{ content: "hi" }] }] };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const d = mkdtempSync(path.join(tmpdir(), "gateway-spill-test-"));
  dirs.push(d);
  return d;
}

/** A served body of about `size` bytes whose text is exactly what `dumpsPy` of its parsed form gives back. */
function bodyOf(i: number, size: number, filler = "x"): string {
  return dumpsPy({ model: "m", temperature: 0.5, seed: i, messages: [user(`hello ${i} ${filler.repeat(size)}`)] });
}

describe("recorder memory budget", () => {
  it("gives a body only Python's json reads (NaN, Infinity) the same plain view as the Python parse", async () => {
    const { gw, post } = await startGateway({ script });
    const odd = '{"model": "m", "temperature": NaN, "top_p": Infinity, "messages": [{"role": "user", "content": "hello"}]}';
    expect((await post(odd)).status).toBe(200);
    const [record] = gw.recorder.records().requests;
    expect(record!.plain).toEqual(toJs(record!.body));
    expect((record!.plain as { temperature: number }).temperature).toBeNaN();
    await gw.stop();
  });

  it("keeps held bytes under the budget, spills the rest, and reads every record back equal", async () => {
    const dir = scratch();
    const budget = 1024 * 1024;
    const { gw, post } = await startGateway({ script, recordBudgetBytes: budget, spillDir: dir });
    const sent: string[] = [];
    for (let i = 0; i < 40; i++) {
      const body = bodyOf(i, 256 * 1024);
      sent.push(body);
      expect((await post(body)).status).toBe(200);
      expect(gw.recorder.memory.heldBytes).toBeLessThanOrEqual(budget);
    }
    const m = gw.recorder.memory;
    // Three bodies of ~256 KiB fit in 1 MiB; the other 37 went to one file in the caller's dir.
    expect(m.heldBytes).toBeGreaterThan(budget / 2);
    expect(m.spilledRecords).toBe(37);
    expect(m.failure).toBeNull();
    expect(m.spillFiles).toHaveLength(1);
    expect(path.dirname(m.spillFiles[0] as string)).toBe(dir);

    const rec = gw.recorder.records();
    expect(rec.requests.map((r) => dumpsPy(r.body))).toEqual(sent);
    expect(rec.requests.map((r) => r.attempt)).toEqual(sent.map((_, i) => i));
    expect(rec.servedUsage.llm_calls).toBe(40);
    expect(gw.recorder.servedUsageFor("")).toEqual(rec.servedUsage);
    // The witness's plain view is the same value, from memory and from the spill file alike.
    expect(rec.requests.map((r) => r.plain)).toEqual(rec.requests.map((r) => toJs(r.body)));
    // Reading a record twice in a row parses it once (one record's parse is kept, not all of them).
    expect(rec.requests[10]?.body).toBe(rec.requests[10]?.body);

    // stop() removes the file; a snapshot taken before, and records() after, still read back.
    await gw.stop();
    expect(readdirSync(dir)).toEqual([]);
    expect(rec.requests.map((r) => dumpsPy(r.body))).toEqual(sent);
    expect(gw.recorder.records().requests.map((r) => dumpsPy(r.body))).toEqual(sent);
  });

  it("bills and answers exactly as without a budget", async () => {
    const spilling = await startGateway({ script, recordBudgetBytes: 0 });
    const keeping = await startGateway({ script });
    const bodies = [bodyOf(0, 10), bodyOf(1, 5000, "é"), "", JSON.stringify({ messages: [user("hello é 😀 ".repeat(300))] })];
    for (const b of bodies) {
      const [a, k] = [await spilling.post(b), await keeping.post(b)];
      expect(a.text.replace(/chatcmpl-mock-\w+|"created": \d+/g, "")).toBe(k.text.replace(/chatcmpl-mock-\w+|"created": \d+/g, ""));
    }
    const [a, k] = [spilling.gw.recorder.records(), keeping.gw.recorder.records()];
    expect(a.served).toEqual(k.served);
    expect(a.requests.map((r) => dumpsPy(r.body))).toEqual(k.requests.map((r) => dumpsPy(r.body)));
    // Budget 0: every non-empty body spilled (the empty one costs nothing and stays).
    expect(spilling.gw.recorder.memory).toMatchObject({ heldBytes: 0, spilledRecords: 3 });
  });

  it("charges ASCII bodies a byte per character and others two", async () => {
    const { gw, post } = await startGateway({ script });
    const ascii = bodyOf(0, 100);
    const latin = JSON.stringify({ messages: [user("hello é")] }); // raw UTF-8, not \\u-escaped
    await post(ascii);
    await post(latin);
    expect(gw.recorder.memory.heldBytes).toBe(ascii.length + 2 * latin.length);
    gw.recorder.clear();
    expect(gw.recorder.memory.heldBytes).toBe(0);
  });

  it("spills large response messages (a delegation copies the user's text) and reads them back", async () => {
    const dir = scratch();
    const { gw, post } = await startGateway({ script, recordBudgetBytes: 0, spillDir: dir });
    const writer = toolSpec("transfer_to_writer", { task: { type: "string" } });
    const r = await post({ messages: [user(`hello ${"y".repeat(20_000)}`)], tools: [writer] });
    const small = await post({ messages: [user("hello")] });
    expect(gw.recorder.memory.spilledRecords).toBe(2 + 1); // two bodies, one large message
    const [big, tiny] = gw.recorder.records().responseMessages;
    expect(dumpsPy(big?.message as PyValue)).toBe(dumpsPy(messageOf(r)));
    expect(dumpsPy(big?.message as PyValue)).toContain("y".repeat(20_000));
    expect(dumpsPy(tiny?.message as PyValue)).toBe(dumpsPy(messageOf(small)));
  });

  it("without spillDir, uses a private temp dir made on first spill and removed at stop", async () => {
    const { gw, post } = await startGateway({ script, recordBudgetBytes: 10 });
    await post({ messages: [user("hello")] });
    const [file] = gw.recorder.memory.spillFiles;
    expect(file?.startsWith(tmpdir())).toBe(true);
    expect(existsSync(file as string)).toBe(true);
    await gw.stop();
    expect(existsSync(path.dirname(file as string))).toBe(false);
    expect(gw.recorder.records().requests[0]?.body.get("messages")).toBeDefined();
  });

  it("keeps the files when asked; a file cut short under us is a typed read error", async () => {
    const dir = scratch();
    const { gw, post } = await startGateway({ script, recordBudgetBytes: 0, spillDir: dir, keepSpillFiles: true });
    await post({ messages: [user("hello")] });
    await gw.stop();
    const [file] = gw.recorder.memory.spillFiles;
    expect(readdirSync(dir)).toEqual([path.basename(file as string)]);
    truncateSync(file as string, 0);
    const request = gw.recorder.records().requests[0];
    expect(() => request?.body).toThrow(SpillReadError);
    expect(() => request?.body).toThrow(expect.objectContaining({ code: "EOF", path: file }));
  });

  it("a spill that cannot happen keeps the record in memory and says why", async () => {
    const dir = scratch();
    const notADir = path.join(dir, "file");
    writeFileSync(notADir, "");
    const { gw, post } = await startGateway({ script, recordBudgetBytes: 0, spillDir: path.join(notADir, "sub") });
    const body = bodyOf(0, 10);
    expect((await post(body)).status).toBe(200);
    expect((await post(body)).status).toBe(200);
    const m = gw.recorder.memory;
    expect(m.failure).toMatchObject({ op: "open", code: "ENOTDIR" });
    expect(m).toMatchObject({ spilledRecords: 0, heldBytes: 2 * body.length });
    expect(gw.recorder.records().requests.map((r) => dumpsPy(r.body))).toEqual([body, body]);
  });

  it("clear() starts a new file; a snapshot from before still reads the old one", async () => {
    const dir = scratch();
    const { gw, post } = await startGateway({ script, recordBudgetBytes: 0, spillDir: dir });
    await post(bodyOf(0, 10));
    const before = gw.recorder.records();
    gw.recorder.clear();
    await post(bodyOf(1, 10));
    expect(readdirSync(dir)).toHaveLength(1);
    expect(gw.recorder.memory.spillFiles).toHaveLength(2);
    expect(dumpsPy(before.requests[0]?.body as PyValue)).toBe(bodyOf(0, 10));
    expect(gw.recorder.records().requests.map((r) => dumpsPy(r.body))).toEqual([bodyOf(1, 10)]);
  });

  it("rejects a nonsense budget up front", async () => {
    await expect(startGateway({ script, recordBudgetBytes: -1 })).rejects.toThrow(/recordBudgetBytes/);
    await expect(startGateway({ script, recordBudgetBytes: 1.5 })).rejects.toThrow(/recordBudgetBytes/);
  });
});
