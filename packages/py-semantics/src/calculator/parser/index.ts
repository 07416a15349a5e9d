/**
 * The parse driver: CPython's two passes and its choice of which error to report
 * (`_PyPegen_run_parser` / `_PyPegen_set_syntax_error`).
 */
import type { Expr } from "../ast.ts";
import { tokenize } from "../tokenizer.ts";
import type { Tokenized } from "../tokens.ts";
import { evalInput, starExpressions } from "./expressions.ts";
import { CalcSyntaxError, Parser } from "./state.ts";

export { CalcSyntaxError, ParserOverflow } from "./state.ts";

type StartRule = (p: Parser) => Expr | null;

/** Parse `source` as `ast.parse(source, mode="eval")` does; returns the body expression. */
export function parseEval(source: string): Expr {
  return run(tokenize(source), evalInput, "");
}

/**
 * An f-string field: CPython compiles `(<text>)` on its own, numbering lines from where the field
 * starts and prefixing parser messages with "f-string: ".
 */
function parseField(text: string, line: number): Expr {
  return run(tokenize(`(${text})\n`, line), starExpressions, "f-string: ");
}

function run(input: Tokenized, start: StartRule, prefix: string): Expr {
  const options = { tokens: input.tokens, failure: input.failure, prefix, subparse: parseField };
  const first = new Parser({ ...options, callInvalidRules: false, fill: 0 });
  let result: Expr | null;
  try {
    result = start(first);
  } catch (err) {
    throw settle(err, first);
  }
  if (result) return result;

  const lastToken = first.lastFetched();
  const second = new Parser({ ...options, callInvalidRules: true, fill: first.fill });
  try {
    start(second);
  } catch (err) {
    throw settle(err, second);
  }
  if (lastToken.type === "INDENT") throw new CalcSyntaxError(`${prefix}unexpected indent`, lastToken.line, false);
  if (lastToken.type === "DEDENT") throw new CalcSyntaxError(`${prefix}unexpected unindent`, lastToken.line, false);
  throw settle(new CalcSyntaxError(`${prefix}invalid syntax`, lastToken.line, false), second, true);
}

/**
 * A parser-raised error gives way to what CPython finds by tokenizing the rest of the source: a
 * tokenizer error anywhere, or a bracket left open on an earlier line than the error.
 */
function settle(err: unknown, p: Parser, generic = false): unknown {
  if (!(err instanceof CalcSyntaxError) || err.fromTokenizer) return err;
  // A specific message is only re-checked while the tokenizer still has input left.
  if (!generic && p.lastFetched().atEnd) return err;
  const failure = p.failure;
  if (!failure) return err;
  if (failure.kind === "raised") return new CalcSyntaxError(failure.message, failure.line, true);
  const open = failure.openBracket;
  if (open && p.lastFetched().line > open.line) {
    return new CalcSyntaxError(`${p.prefix}'${open.char}' was never closed`, open.line, true);
  }
  return err;
}
