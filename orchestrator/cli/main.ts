/**
 * `arena <command> [options]`: finds the command, parses its flags, runs it. Usage mistakes exit
 * 2 with the usage text on stderr; bad arena data is reported as messages, never a stack trace.
 */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { ArenaLoadError, ArenaLookupError } from "../arena/diagnostics.ts";
import { UsageError, type Command, type FlagValue, type Io } from "./command.ts";
import { COMMANDS } from "./commands/index.ts";
import { COMMON_FLAGS, resolveCommon } from "./common.ts";
import { commandUsage, programUsage } from "./usage.ts";
import { EXIT_INFRA, EXIT_USAGE } from "./exit-codes.ts";
import { asOutputError } from "../files/fs-error.ts";
import { UnsafePathError } from "../files/safe-path.ts";
import { ManifestError } from "../store/manifest.ts";
import { ConfigError, quoted } from "../config/values.ts";
import { FORMAT_VERSION, HARNESS_VERSION } from "../report/record.ts";
import { didYouMean } from "./suggest.ts";
import { HistoryError } from "../history/error.ts";

/** `arena --version`: what a bug report needs to name the harness that wrote a record. */
export function versionLine(): string {
  return `arena ${HARNESS_VERSION} (record format ${FORMAT_VERSION}), Node ${process.versions.node}\n`;
}

export async function main(argv: readonly string[], io: Io, commands: readonly Command[] = COMMANDS): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const target = name === "help" ? commands.find((c) => c.name === rest[0]) : undefined;
    const out = name === undefined ? io.stderr : io.stdout;
    out(target ? commandUsage(target) : programUsage(commands));
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    io.stdout(versionLine());
    return 0;
  }
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) {
    const hint = didYouMean(name, commands.map((c) => c.name));
    io.stderr(`arena: unknown command '${name}'${hint}\n\n${programUsage(commands)}`);
    return EXIT_USAGE;
  }
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(cmd, rest);
  } catch (err) {
    if (!(err instanceof TypeError || err instanceof UsageError)) throw err;
    io.stderr(`arena ${cmd.name}: ${unknownFlag(cmd, err) ?? err.message}\n\n${commandUsage(cmd)}`);
    return EXIT_USAGE;
  }
  if (parsed.values["help"] === true) {
    io.stdout(commandUsage(cmd));
    return 0;
  }
  const flags: Record<string, FlagValue> = {};
  for (const flag of Object.keys(cmd.flags ?? {})) flags[flag] = parsed.values[flag];
  try {
    return await cmd.run({ common: resolveCommon(parsed.values, io.cwd), flags, positionals: parsed.positionals, io });
  } catch (err) {
    // An arena that does not load is bad input, like a bad flag: reported in one line.
    if (
      err instanceof UsageError ||
      err instanceof ConfigError ||
      err instanceof ArenaLookupError ||
      err instanceof ArenaLoadError ||
      err instanceof ManifestError ||
      err instanceof HistoryError
    ) {
      io.stderr(`arena ${cmd.name}: ${err.message}\n`);
      return EXIT_USAGE;
    }
    // An output root the environment will not let us write is one line, not a stack trace.
    const output = asOutputError(err);
    if (output) {
      io.stderr(`arena ${cmd.name}: ${output.message}\n`);
      return EXIT_INFRA;
    }
    if (err instanceof UnsafePathError) {
      io.stderr(`arena ${cmd.name}: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

/**
 * parseArgs' "Unknown option '--framwork'" (plus, where positionals are allowed, advice about
 * `--` that does not apply to a typo), said in one line with the nearest flag this command takes.
 */
function unknownFlag(cmd: Command, err: Error): string | undefined {
  if ((err as NodeJS.ErrnoException).code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return undefined;
  const given = /'(-[^']+)'/.exec(err.message)?.[1];
  if (given === undefined) return undefined;
  const flags = ["help", ...cmd.common, ...Object.keys(cmd.flags ?? {})];
  const hint = given.startsWith("--") ? didYouMean(given.slice(2), flags, (f) => `--${f}`) : "";
  return `unknown flag '${given}'${hint}`;
}

function parseFlags(cmd: Command, args: readonly string[]) {
  const options: ParseArgsOptionsConfig = { help: { type: "boolean", short: "h" } };
  for (const name of cmd.common) options[name] = COMMON_FLAGS[name].option;
  for (const [name, spec] of Object.entries(cmd.flags ?? {})) {
    options[name] = { type: spec.type, ...(spec.multiple ? { multiple: true } : {}), ...(spec.short ? { short: spec.short } : {}) };
  }
  const parsed = parseArgs({ args: joinNegativeValues(args, options), options, strict: true, allowPositionals: cmd.positionals !== undefined, tokens: true });
  refuseRepeatedValues(parsed.tokens, options);
  return { values: parsed.values as Record<string, FlagValue>, positionals: parsed.positionals };
}

/** `-5`, `-0.5`: what a value that is a negative number looks like (never a flag of ours). */
const NEGATIVE_NUMBER = /^-[\d.]/;

/**
 * `--repeat -5` as `--repeat=-5`: parseArgs takes a value starting with `-` for a flag and says the
 * argument "is ambiguous", which names neither the flag's rule nor its range. Joined, the value
 * reaches the flag's own parser, whose message does (no flag of ours starts with a digit).
 */
function joinNegativeValues(args: readonly string[], options: ParseArgsOptionsConfig): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return [...out, ...args.slice(i)];
    const option = arg.startsWith("--") ? options[arg.slice(2)] : undefined;
    const next = args[i + 1];
    if (option?.type === "string" && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * A single-value flag given twice (`--mode live --mode mock`): parseArgs keeps the last, so the run
 * would quietly be a different one than the first value asked for. Refused, naming both values.
 */
function refuseRepeatedValues(tokens: readonly { kind: string; name?: string; value?: string | undefined }[], options: ParseArgsOptionsConfig): void {
  const seen = new Map<string, string>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined) continue;
    const option = options[token.name];
    if (option?.type !== "string" || option.multiple === true) continue;
    const value = token.value ?? "";
    const first = seen.get(token.name);
    if (first !== undefined) throw new UsageError(`--${token.name} given twice (${quoted(first)}, then ${quoted(value)}): give it once`);
    seen.set(token.name, value);
  }
}
