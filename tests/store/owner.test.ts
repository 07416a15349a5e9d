/**
 * A session's process, as recorded and checked (store/owner.ts): this process is alive; a pid
 * that exited, a pid now held by a process started at another time (pid reuse) or in another boot
 * is gone; a session recorded on another host cannot be told from here.
 */
import os from "node:os";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { currentOwner, ownerState } from "../../orchestrator/store/owner.ts";
import { runStatus } from "../../orchestrator/history/runs.ts";
import type { Manifest } from "../../orchestrator/store/manifest.ts";

describe("a session's owner process", () => {
  it("this process is alive, with its start time and boot id recorded", () => {
    const me = currentOwner();
    expect(me).toMatchObject({ pid: process.pid, host: os.hostname() });
    expect(me.start_ticks).toMatch(/^\d+$/);
    expect(me.boot_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ownerState(me)).toBe("alive");
  });

  it("an exited process is gone; a reused pid (another start time) or another boot is gone; another host is unknown", async () => {
    const child = execa(process.execPath, ["-e", ""]);
    await child;
    expect(ownerState({ pid: child.pid!, host: os.hostname() })).toBe("gone");
    const me = currentOwner();
    expect(ownerState({ ...me, start_ticks: String(Number(me.start_ticks) + 1) })).toBe("gone");
    expect(ownerState({ ...me, boot_id: "00000000-0000-0000-0000-000000000000" })).toBe("gone");
    expect(ownerState({ ...me, host: `${os.hostname()}-elsewhere` })).toBe("unknown");
  });

  it("arena runs' status: a running session whose process is gone is interrupted; one naming no process is stale", () => {
    const manifest = (session: Manifest["sessions"][number]) => ({ sessions: [session] }) as Manifest;
    const me = currentOwner();
    expect(runStatus(manifest({ started_at: "x", status: "running", process: me }))).toBe("running");
    expect(runStatus(manifest({ started_at: "x", status: "running", process: me }), () => "gone")).toBe(`interrupted (process ${me.pid} is gone)`);
    expect(runStatus(manifest({ started_at: "x", status: "running" }))).toBe("stale (no process recorded)");
    expect(runStatus(manifest({ started_at: "x", status: "complete", process: me }), () => "gone")).toBe("complete");
  });
});
