import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../orchestrator/cli/main.ts";
import { REPO_ROOT } from "../support/reference.ts";

const BIN = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");

describe("arena gateway", () => {
  it("prints its base URL first, serves the arena's script, and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [BIN, "gateway", "--arena", "tool_use"], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const nl = out.indexOf("\n");
        if (nl !== -1) resolve(out.slice(0, nl));
      });
      void exited.then(() => reject(new Error(`exited early: ${err}`)));
    });
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = await (await fetch(`${baseUrl}/models`)).text();
    expect(models).toContain("mock-model");
    const reply = await fetch(`${baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "nothing we know" }] }) });
    expect(reply.status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(out).toMatch(/records at http:\/\/127\.0\.0\.1:\d+\/__arena\/[0-9a-f]{32}\/records/);
    expect(out).toContain("served 1 request(s)");
  });

  it("needs exactly one arena and a sane port", async () => {
    const io = { cwd: REPO_ROOT, stdout: () => {}, stderr: (t: string) => void (errors += t) };
    let errors = "";
    expect(await main(["gateway"], io)).toBe(2);
    expect(errors).toContain("give exactly one --arena");
    errors = "";
    expect(await main(["gateway", "--arena", "tool_use", "--port", "70000"], io)).toBe(2);
    expect(errors).toContain("--port must be an integer in 0..65535");
    errors = "";
    expect(await main(["gateway", "--arena", "tool_use", "--faults", "429,abc"], io)).toBe(2);
    expect(errors).toContain("--faults");
  });
});
