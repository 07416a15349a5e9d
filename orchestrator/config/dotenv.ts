/**
 * The `.env` reader of harness.md §1: only `ARENA_*`, `OPENAI_API_KEY` and `OPENAI_BASE_URL`
 * are read, values are literal, and an error names the key but never echoes the value (it may
 * be a secret). Only a regular file is read: a FIFO there once blocked every command forever,
 * past SIGINT, and a directory surfaced as an "(unknown path)" output error.
 */
import path from "node:path";
import { readArenaText } from "../arena/text.ts";
import { ConfigError } from "./values.ts";

/** A ConfigError too, so one `instanceof ConfigError` reports every bad configuration the same way. */
export class DotenvError extends ConfigError {
  override readonly name: string = "DotenvError";
  readonly file: string;
  readonly line: number;
  /** The key the problem is about; `undefined` for a problem of the file or of a line with no key. */
  readonly key: string | undefined;
  constructor(file: string, line: number, key: string | undefined, problem: string) {
    super(key ?? path.basename(file), problem, `${file}:${line}: ${key === undefined ? "" : `${key}: `}${problem}`);
    this.file = file;
    this.line = line;
    this.key = key;
  }
}

/**
 * `file` parsed, or `{}` when there is none. Stat first, then a non-blocking open checked again on
 * the descriptor (arena/text.ts): a FIFO, a device or a directory is refused without being read.
 */
export function readDotenv(file: string): Record<string, string> {
  const read = readArenaText(file);
  if (read.kind === "missing") return {};
  if (read.kind === "invalid") throw new DotenvError(file, read.line, undefined, read.reason);
  return parseDotenv(read.text, file);
}

const WANTED = /^(ARENA_[A-Za-z0-9_]*|OPENAI_API_KEY|OPENAI_BASE_URL)$/;

export function parseDotenv(text: string, file = ".env"): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, index) => {
    let line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    if (line.startsWith("export ")) line = line.slice(7).trimStart();
    const eq = line.indexOf("=");
    // Not shown: a line with no '=' is as likely a pasted key as anything else.
    if (eq === -1) throw new DotenvError(file, index + 1, undefined, "no '=' on this line (expected KEY=value; the line is not shown)");
    if (eq === 0) throw new DotenvError(file, index + 1, undefined, "no key before '=' (expected KEY=value; the line is not shown)");
    const key = line.slice(0, eq).trim();
    if (!WANTED.test(key)) return;
    let value = line.slice(eq + 1).trim();
    const quote = value[0];
    if (quote === '"' || quote === "'") {
      const close = value.indexOf(quote, 1);
      const rest = close === -1 ? "" : value.slice(close + 1).trim();
      if (close === -1 || (rest !== "" && !rest.startsWith("#"))) {
        throw new DotenvError(file, index + 1, key, `quoted value is not closed by a matching ${quote}`);
      }
      value = value.slice(1, close);
    } else {
      const comment = value.search(/\s#/);
      if (comment !== -1) value = value.slice(0, comment).trimEnd();
    }
    out[key] = value;
  });
  return out;
}
