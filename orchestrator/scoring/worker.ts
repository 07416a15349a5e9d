/** Piscina task file: scores one item inside a worker thread (see pool.ts). */
import type { MessagePort } from "node:worker_threads";
import type { Check } from "../arena/schemas.ts";
import { scoreItem } from "./score.ts";
import type { ItemScore, ScoreInput } from "./types.ts";

export interface ScoreTask {
  readonly checks: readonly Check[];
  readonly input: ScoreInput;
  /** Told when scoring starts, so the deadline excludes queueing and thread start-up. */
  readonly started: MessagePort;
}

export default function scoreTask(task: ScoreTask): ItemScore {
  task.started.postMessage(null);
  return scoreItem(task.checks, task.input);
}
