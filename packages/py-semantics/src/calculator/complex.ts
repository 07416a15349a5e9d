/**
 * CPython 3.11's complex arithmetic (`complexobject.c`). A negative number to a fractional power
 * is complex in Python, and a complex value keeps flowing through `+ - * / **`; the result is
 * always rejected in the end, but these operators can fail first (division by zero, overflow),
 * and that failure is what the model is shown.
 */
import { overflow, zeroDivision } from "./errors.ts";

export interface Complex {
  readonly re: number;
  readonly im: number;
}

export function isComplex(v: number | Complex): v is Complex {
  return typeof v === "object";
}

export function toComplex(v: number | Complex): Complex {
  return isComplex(v) ? v : { re: v, im: 0 };
}

export const complexAdd = (a: Complex, b: Complex): Complex => ({ re: a.re + b.re, im: a.im + b.im });
export const complexSub = (a: Complex, b: Complex): Complex => ({ re: a.re - b.re, im: a.im - b.im });
export const complexNeg = (a: Complex): Complex => ({ re: -a.re, im: -a.im });

export function complexMul(a: Complex, b: Complex): Complex {
  return { re: a.re * b.re - a.im * b.im, im: a.re * b.im + a.im * b.re };
}

/** `_Py_c_quot`; `null` where C sets errno = EDOM (an exactly zero divisor). */
function quotient(a: Complex, b: Complex): Complex | null {
  const absRe = Math.abs(b.re);
  const absIm = Math.abs(b.im);
  if (absRe >= absIm) {
    if (absRe === 0) return null;
    const ratio = b.im / b.re;
    const denom = b.re + b.im * ratio;
    return { re: (a.re + a.im * ratio) / denom, im: (a.im - a.re * ratio) / denom };
  }
  if (absIm >= absRe) {
    const ratio = b.re / b.im;
    const denom = b.re * ratio + b.im;
    return { re: (a.re * ratio + a.im) / denom, im: (a.im * ratio - a.re) / denom };
  }
  return { re: Number.NaN, im: Number.NaN };
}

export function complexDiv(a: Complex, b: Complex): Complex {
  const q = quotient(a, b);
  if (!q) throw zeroDivision("complex division by zero");
  return q;
}

const ONE: Complex = { re: 1, im: 0 };

/** Binary powering for small integral exponents (`c_powu`). */
function powUnsigned(x: Complex, n: number): Complex {
  let r = ONE;
  let p = x;
  for (let mask = 1; mask > 0 && n >= mask; mask *= 2) {
    if (n & mask) r = complexMul(r, p);
    p = complexMul(p, p);
  }
  return r;
}

const ZERO_TO_NEGATIVE = "0.0 to a negative or complex power";

/** `complex_pow`: integral exponents up to 100 by repeated multiplication, others through polar form. */
export function complexPow(a: Complex, b: Complex): Complex {
  let result: Complex | null;
  // errno = EDOM: zero to a negative or complex power, or sin/cos of an infinite phase in libm.
  let domainError = false;
  if (b.im === 0 && b.re === Math.floor(b.re) && Math.abs(b.re) <= 100) {
    const n = b.re;
    result = n > 0 ? powUnsigned(a, n) : quotient(ONE, powUnsigned(a, -n));
    if (!result) domainError = true;
  } else if (b.re === 0 && b.im === 0) {
    result = ONE;
  } else if (a.re === 0 && a.im === 0) {
    if (b.im !== 0 || b.re < 0) domainError = true;
    result = { re: 0, im: 0 };
  } else {
    const vabs = Math.hypot(a.re, a.im);
    let len = Math.pow(vabs, b.re);
    const at = Math.atan2(a.im, a.re);
    let phase = at * b.re;
    if (b.im !== 0) {
      len /= Math.exp(at * b.im);
      phase += b.im * Math.log(vabs);
    }
    if (phase === Infinity || phase === -Infinity) domainError = true;
    result = { re: len * Math.cos(phase), im: len * Math.sin(phase) };
  }
  if (domainError) throw zeroDivision(ZERO_TO_NEGATIVE);
  const r = result!;
  if (Math.abs(r.re) === Infinity || Math.abs(r.im) === Infinity) throw overflow("complex exponentiation");
  return r;
}
