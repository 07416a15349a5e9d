/**
 * Python's float text forms: `repr(x)` (shortest round-trip digits, fixed notation for
 * decimal exponents in [-4, 16)) and `'{:.6g}'` (the calculator's output format).
 */

/** Shortest round-trip significant digits and the decimal exponent of `x` (finite, non-zero). */
function shortestDigits(x: number): { digits: string; exponent: number } {
  const [mantissa, exp] = Math.abs(x).toExponential().split("e") as [string, string];
  return { digits: mantissa.replace(".", ""), exponent: Number(exp) };
}

/**
 * Python `repr(float)`. `json` mode spells the non-finite values as `json.dumps` does
 * (`NaN`, `Infinity`); `repr` mode as `repr` does (`nan`, `inf`).
 */
export function floatRepr(x: number, mode: "json" | "repr" = "repr"): string {
  if (Number.isNaN(x)) return mode === "json" ? "NaN" : "nan";
  if (!Number.isFinite(x)) {
    const inf = mode === "json" ? "Infinity" : "inf";
    return x > 0 ? inf : `-${inf}`;
  }
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const { digits, exponent } = shortestDigits(x);
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
    const intLen = exponent + 1;
    const intPart = digits.length > intLen ? digits.slice(0, intLen) : digits.padEnd(intLen, "0");
    const frac = digits.length > intLen ? digits.slice(intLen) : "0";
    return `${sign}${intPart}.${frac}`;
  }
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const expSign = exponent < 0 ? "-" : "+";
  return `${sign}${mant}e${expSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/**
 * Round a finite positive double to `sig` significant digits, correctly rounded from its exact
 * binary value with ties to even (what CPython's formatter does; `toPrecision` rounds ties away
 * from zero on the decimal expansion, so 999998.5 would become 999999).
 */
function roundSignificant(x: number, sig: number): { digits: string; exponent: number } {
  const { digits, exponent } = exactDecimal(x);
  if (digits.length <= sig) return { digits: digits.padEnd(sig, "0"), exponent };
  const head = digits.slice(0, sig);
  const rest = digits.slice(sig);
  let roundUp: boolean;
  if (rest[0]! > "5") roundUp = true;
  else if (rest[0]! < "5") roundUp = false;
  else if (/[1-9]/.test(rest.slice(1))) roundUp = true;
  else roundUp = Number(head[head.length - 1]) % 2 === 1;
  if (!roundUp) return { digits: head, exponent };
  const bumped = (BigInt(head) + 1n).toString();
  if (bumped.length > sig) return { digits: bumped.slice(0, sig), exponent: exponent + 1 };
  return { digits: bumped, exponent };
}

/** The exact decimal expansion of a finite positive double: all significant digits and the exponent. */
function exactDecimal(x: number): { digits: string; exponent: number } {
  // x = m * 2^e exactly, with m an integer.
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e2: number;
  if (biased === 0) e2 = -1074;
  else {
    mantissa |= 1n << 52n;
    e2 = biased - 1075;
  }
  let digitsInt: bigint;
  let scale: number; // value = digitsInt * 10^-scale
  if (e2 >= 0) {
    digitsInt = mantissa << BigInt(e2);
    scale = 0;
  } else {
    // m / 2^k = m * 5^k / 10^k
    digitsInt = mantissa * 5n ** BigInt(-e2);
    scale = -e2;
  }
  let digits = digitsInt.toString();
  const exponent = digits.length - 1 - scale;
  digits = digits.replace(/0+$/, "") || "0";
  return { digits, exponent };
}

/** Python `'{:.6g}'.format(x)` (or any precision): significant-digit formatting with trailing zeros removed. */
export function formatG(x: number, precision = 6): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const sign = x < 0 ? "-" : "";
  const { digits, exponent } = roundSignificant(Math.abs(x), precision);
  let body: string;
  if (exponent >= -4 && exponent < precision) {
    if (exponent < 0) body = `0.${"0".repeat(-exponent - 1)}${digits}`;
    else body = `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
    body = stripZeros(body);
  } else {
    const mant = stripZeros(`${digits[0]}.${digits.slice(1)}`);
    body = `${mant}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return sign + body;
}

function stripZeros(s: string): string {
  if (!s.includes(".")) return s;
  return s.replace(/0+$/, "").replace(/\.$/, "");
}

/**
 * Python `'{:.Nf}'.format(x)`: fixed notation rounded from the exact binary value, ties to even.
 * (`toFixed` also starts from the exact value but breaks exact ties upwards: 0.125 → "0.13",
 * where Python gives "0.12".)
 */
export function formatFixed(x: number, decimals: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return `${sign}${(0).toFixed(decimals)}`;
  const { digits, exponent } = exactDecimal(Math.abs(x));
  // value = 0.digits × 10^(exponent+1); scale to an integer count of 10^-decimals units.
  const shift = exponent + 1 + decimals; // number of digits that land left of the cut
  let kept: bigint;
  if (shift <= 0) {
    // Everything is below the cut; only a value above half a unit rounds up (never a tie unless shift === 0).
    const roundsUp = shift === 0 && (digits[0]! > "5" || (digits[0] === "5" && /[1-9]/.test(digits.slice(1))));
    kept = roundsUp ? 1n : 0n;
  } else {
    const head = digits.length >= shift ? digits.slice(0, shift) : digits.padEnd(shift, "0");
    const rest = digits.length > shift ? digits.slice(shift) : "";
    kept = BigInt(head);
    if (rest !== "") {
      const first = rest[0]!;
      const tail = /[1-9]/.test(rest.slice(1));
      if (first > "5" || (first === "5" && (tail || kept % 2n === 1n))) kept += 1n;
    }
  }
  let text = kept.toString().padStart(decimals + 1, "0");
  if (decimals > 0) text = `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
  return sign + text;
}

/** Python `round(x, ndigits)` for a float. */
export function pyRound(x: number, ndigits: number): number {
  return Number(formatFixed(x, ndigits));
}
