/** Number extraction for `numeric_equals` (arena-format.md §5.1). */
import { asciiDigits } from "@agentic-arena/py-semantics";

// Python `-?\d[\d,]*\.?\d*` with Unicode `\d`.
const NUMBER_TOKEN = /-?\p{Nd}[\p{Nd},]*\.?\p{Nd}*/gu;

/**
 * Every number in `text`, left to right. Commas are dropped wherever they are (`2,3` is 23),
 * a dash directly before a digit is a sign (`2008-1991` yields −1991), and non-ASCII decimal
 * digits are mapped first because `Number()` only reads ASCII while Python `float()` reads all.
 * A token too long for a double becomes `Infinity`, as Python's `float()` does.
 */
export function extractNumbers(text: string): number[] {
  const out: number[] = [];
  for (const [token] of text.matchAll(NUMBER_TOKEN)) {
    out.push(Number(asciiDigits(token.replaceAll(",", ""))));
  }
  return out;
}
