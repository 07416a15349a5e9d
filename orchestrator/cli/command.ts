/**
 * The shape of an `arena` sub-command. Adding one = an entry in `commands/index.ts`, plus a
 * module beside it exporting the `run` that entry loads.
 */
import type { CommonOptions, CommonFlag } from "./common.ts";

/** A command-specific flag, parsed with `node:util` parseArgs. */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  readonly multiple?: boolean;
  readonly short?: string;
  /** Placeholder shown in usage (`--out DIR`). */
  readonly valueName?: string;
  readonly description: string;
}

export type FlagValue = string | boolean | (string | boolean)[] | undefined;

/** Where a command writes; injected so commands can be run in-process by tests. */
export interface Io {
  readonly cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface CommandContext {
  readonly common: CommonOptions;
  /** This command's own flags, by name. */
  readonly flags: Readonly<Record<string, FlagValue>>;
  readonly positionals: readonly string[];
  readonly io: Io;
}

export interface Command {
  readonly name: string;
  /** One line, for `arena --help`. */
  readonly summary: string;
  /** The shared flags this command accepts (parsed in one place, common.ts). */
  readonly common: readonly CommonFlag[];
  readonly flags?: Readonly<Record<string, FlagSpec>>;
  /** Lines printed under the summary by `--help` (a rule the flags alone do not say). */
  readonly details?: readonly string[];
  /** Usage text for positional arguments (`<framework>...`); absent = none allowed. */
  readonly positionals?: string;
  /** Resolves to the process exit code. */
  run(ctx: CommandContext): number | Promise<number>;
}

/** A mistake on the command line: reported with the usage text, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
