/**
 * NUMBER and STRING atoms. Their values are built while parsing, as CPython does, so conversion
 * failures (an over-long decimal literal, a bad escape, bytes mixed with str) are syntax errors
 * raised at the literal — before anything is evaluated.
 */
import { constant, opaque, type Constant, type Expr } from "../ast.ts";
import { scanFstring } from "../fstring.ts";
import {
  BYTES_NON_ASCII,
  decodeBytesLiteral,
  decodeStringLiteral,
  splitStringToken,
} from "../literals.ts";
import type { Token } from "../tokens.ts";
import { RULE, type Parser } from "./state.ts";

/** CPython's default `sys.get_int_max_str_digits()`. */
const INT_MAX_STR_DIGITS = 4300;

export function literal(p: Parser): Expr | null {
  const t = p.peek();
  if (t.type === "NUMBER") {
    p.pos++;
    return constant(numberValue(p, t), t.line);
  }
  return t.type === "STRING" ? strings(p) : null;
}

function numberValue(p: Parser, t: Token): Constant {
  const text = t.text.replaceAll("_", "");
  const last = text[text.length - 1];
  if (last === "j" || last === "J") return { kind: "complex", imag: Number(text.slice(0, -1)) };
  if (/^0[xXoObB]/.test(text)) return { kind: "int", value: BigInt(text) };
  if (/[.eE]/.test(text)) return { kind: "float", value: Number(text) };
  // A literal of zeros never reaches CPython's arbitrary-precision (and length-limited) path.
  if (!/^0+$/.test(text) && text.length > INT_MAX_STR_DIGITS) {
    p.raiseAt(
      t.line,
      `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${text.length} digits;` +
        " use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals" +
        " to avoid decimal conversion limits.",
    );
  }
  return { kind: "int", value: BigInt(text) };
}

/** strings: STRING+ — adjacent literals concatenated. */
function strings(p: Parser): Expr | null {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.strings);
  if (!p.isMiss(hit)) return hit;
  const tokens: Token[] = [];
  while (p.peek().type === "STRING") tokens.push(p.tokens[p.pos++]!);
  return p.memoSet(RULE.strings, start, concatenate(p, tokens));
}

function concatenate(p: Parser, tokens: readonly Token[]): Expr {
  const raiseHere = (message: string): never => p.raiseHere(message);
  let bytesMode = false;
  let fields: Expr[] | null = null;
  const codePoints: number[] = [];
  const bytes: number[] = [];
  for (const [index, t] of tokens.entries()) {
    const lit = splitStringToken(t.text);
    let value: number[] = [];
    if (lit.bytes) {
      if (/[^\x00-\x7f]/u.test(lit.body)) p.raiseAt(t.line, BYTES_NON_ASCII);
      value = decodeBytesLiteral(lit.body, lit.raw, raiseHere);
    } else if (!lit.fstring) {
      value = lit.raw ? Array.from(lit.body, (c) => c.codePointAt(0)!) : decodeStringLiteral(lit.body, raiseHere);
    }
    if (index > 0 && bytesMode !== lit.bytes) p.raiseHere("cannot mix bytes and nonbytes literals");
    bytesMode = lit.bytes;
    if (lit.fstring) {
      fields ??= [];
      for (const field of scanFstring(lit.body, lit.raw, t.line, { raiseHere, expression: p.subparse })) {
        fields.push(field);
      }
    } else {
      const target = bytesMode ? bytes : codePoints;
      for (const v of value) target.push(v);
    }
  }
  const line = tokens[0]!.line;
  // A field sits under a FormattedValue node inside the JoinedStr.
  if (fields) return opaque("JoinedStr", line, fields, 1);
  return constant(bytesMode ? { kind: "bytes", bytes } : { kind: "str", codePoints }, line);
}
