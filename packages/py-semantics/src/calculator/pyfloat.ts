/**
 * CPython 3.11's float operators (`floatobject.c`). JS `%` truncates and JS `**` knows nothing of
 * Python's special cases and errors, so `/ // % **` are spelled out here; `+ - *` are plain IEEE.
 */
import { complexPow, type Complex } from "./complex.ts";
import { overflow, zeroDivision } from "./errors.ts";

/** C `copysign(0.0, of)`. */
function signedZero(of: number): number {
  return of < 0 || Object.is(of, -0) ? -0 : 0;
}

export function floatDiv(a: number, b: number): number {
  if (b === 0) throw zeroDivision("float division by zero");
  return a / b;
}

export function floatMod(a: number, b: number): number {
  if (b === 0) throw zeroDivision("float modulo");
  let mod = a % b; // C fmod: exact, sign of the dividend
  // NaN compares unequal to 0 here, as C's `if (mod)` treats it as true.
  if (mod !== 0) {
    if (b < 0 !== mod < 0) mod += b;
  } else mod = signedZero(b);
  return mod;
}

export function floatFloorDiv(a: number, b: number): number {
  if (b === 0) throw zeroDivision("float floor division by zero");
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && b < 0 !== mod < 0) div -= 1;
  if (div === 0) return signedZero(a / b);
  // The quotient is computed inexactly; snap it to the nearest integer as CPython does.
  let floorDiv = Math.floor(div);
  if (div - floorDiv > 0.5) floorDiv += 1;
  return floorDiv;
}

function isOddInteger(x: number): boolean {
  return Number.isFinite(x) && Math.abs(x % 2) === 1;
}

/** `a ** b` on two floats: a float, or a complex for a negative base and fractional exponent. */
export function floatPow(a: number, b: number): number | Complex {
  if (b === 0) return 1; // even 0 ** 0 and nan ** 0
  if (Number.isNaN(a)) return a;
  if (Number.isNaN(b)) return a === 1 ? 1 : b;
  if (!Number.isFinite(b)) {
    const magnitude = Math.abs(a);
    if (magnitude === 1) return 1;
    return b > 0 === magnitude > 1 ? Math.abs(b) : 0;
  }
  if (!Number.isFinite(a)) {
    const odd = isOddInteger(b);
    if (b > 0) return odd ? a : Math.abs(a);
    return odd ? signedZero(a) : 0;
  }
  if (a === 0) {
    if (b < 0) throw zeroDivision("0.0 cannot be raised to a negative power");
    return isOddInteger(b) ? a : 0;
  }
  let negate = false;
  if (a < 0) {
    if (b !== Math.floor(b)) return complexPow({ re: a, im: 0 }, { re: b, im: 0 });
    a = -a;
    negate = isOddInteger(b);
  }
  if (a === 1) return negate ? -1 : 1;
  const result = Math.pow(a, b);
  // libm reports overflow through errno (ERANGE); underflow to zero is not an error.
  if (!Number.isFinite(result)) throw overflow("(34, 'Numerical result out of range')");
  return negate ? -result : result;
}
