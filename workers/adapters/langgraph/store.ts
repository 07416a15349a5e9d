/**
 * Where a run's checkpoints live. On an arena that pauses, LangGraph's SQLite checkpointer writes
 * one database per run (thread) inside the harness-owned `checkpoint_dir` and nowhere else; the
 * connection is closed at the end of every leg, which folds SQLite's write-ahead log back into
 * the database file, so when the harness kills the worker at a pause the run is one complete
 * file. Arenas without a pause (and a pause arena run without a checkpoint directory) use the
 * in-memory saver: nothing is written anywhere.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";

/** The part of `resume_state` that locates a paused run (opaque to the harness; plain JSON). */
export interface RunHandle {
  readonly thread_id: string;
  /** Database file name inside `checkpoint_dir`, or null for the in-memory saver. */
  readonly checkpoint_file: string | null;
  /** The checkpoint the run paused at; the resume refuses to continue from any other. */
  readonly checkpoint_id: string;
}

export interface OpenStore {
  readonly saver: BaseCheckpointSaver;
  readonly file: string | null;
  close(): void;
}

const FILE_PATTERN = /^langgraph-[A-Za-z0-9_.-]+\.sqlite$/;

/** A thread id that is unique per run and safe in a file name. */
export function newThreadId(itemId: string): string {
  const safe = itemId.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64);
  return `${safe}-${randomUUID()}`;
}

export class RunStore {
  private readonly persist: boolean;
  /** In-memory runs that may still be resumed in this process (no checkpoint directory). */
  private readonly memory = new MemorySaver();

  /** `persist`: the arena pauses, so runs must be resumable; on disk when the item has a directory. */
  constructor(persist: boolean) {
    this.persist = persist;
  }

  private durable(dir: string): boolean {
    return this.persist && dir !== "";
  }

  /** The store for a new run on `thread`, in the item's checkpoint directory. */
  open(thread: string, dir: string): OpenStore {
    if (!this.durable(dir)) {
      // Pause arena without a directory: keep the run in this process. Otherwise a throwaway saver.
      const saver = this.persist ? this.memory : new MemorySaver();
      return { saver, file: null, close: () => {} };
    }
    mkdirSync(dir, { recursive: true });
    return this.openFile(dir, `langgraph-${thread}.sqlite`);
  }

  /** Reopen the store a paused run was written to; a string is the reason it cannot be. */
  reopen(handle: RunHandle, dir: string): OpenStore | string {
    if (handle.checkpoint_file === null) {
      if (this.durable(dir) || !this.persist) return "the run was kept in memory by another process";
      return { saver: this.memory, file: null, close: () => {} };
    }
    if (!this.durable(dir)) return "this item has no checkpoint directory";
    if (!FILE_PATTERN.test(handle.checkpoint_file)) return `not a checkpoint file name: ${JSON.stringify(handle.checkpoint_file)}`;
    if (!existsSync(path.join(dir, handle.checkpoint_file))) return `checkpoint file ${handle.checkpoint_file} is missing`;
    return this.openFile(dir, handle.checkpoint_file);
  }

  private openFile(dir: string, name: string): OpenStore {
    const saver = SqliteSaver.fromConnString(path.join(dir, name));
    return {
      saver,
      file: name,
      close: () => {
        if (!saver.db.open) return;
        // SqliteSaver switches the file to WAL mode, and closing the connection does not fold the
        // log back (its prepared statements keep the connection alive until garbage collection):
        // the run would sit in a -wal file beside a 4 KB database. Every commit was already
        // fsynced (synchronous = FULL), so this is tidiness, not durability: leaving WAL mode
        // checkpoints the log into the database and deletes -wal/-shm, so a paused run is one
        // file. The next open (setup) switches back to WAL.
        try {
          saver.db.pragma("journal_mode=DELETE");
        } finally {
          saver.db.close();
        }
      },
    };
  }
}

export function parseHandle(state: unknown): RunHandle | string {
  if (state === null || typeof state !== "object" || Array.isArray(state)) return "resume_state is not an object";
  const s = state as Record<string, unknown>;
  if (typeof s.thread_id !== "string" || s.thread_id === "") return "resume_state has no thread_id";
  if (typeof s.checkpoint_id !== "string") return "resume_state has no checkpoint_id";
  if (s.checkpoint_file !== null && typeof s.checkpoint_file !== "string") return "resume_state has a bad checkpoint_file";
  return { thread_id: s.thread_id, checkpoint_file: s.checkpoint_file as string | null, checkpoint_id: s.checkpoint_id };
}
