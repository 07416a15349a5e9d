/** CPython 3.11's second-pass rules for malformed lambda parameter lists. */
import {
  many,
  paramMaybeDefault,
  paramNoDefault,
  paramWithDefault,
  slashNoDefault,
  slashWithDefault,
} from "./lambda.ts";
import type { Parser } from "./state.ts";

function attempt(p: Parser, alternative: () => void): void {
  const start = p.pos;
  alternative();
  p.pos = start;
}

/**
 * invalid_lambda_parameters:
 *   lambda_param_no_default* invalid_lambda_parameters_helper a=lambda_param_no_default
 *   lambda_param_no_default* a='(' ','.lambda_param+ ','? b=')'
 *   a="/" ','
 *   (lambda_slash_no_default | lambda_slash_with_default) lambda_param_maybe_default* a='/'
 *   (lambda_slash_no_default | lambda_slash_with_default)? lambda_param_maybe_default* '*' (',' | lambda_param_no_default) lambda_param_maybe_default* a='/'
 *   lambda_param_maybe_default+ '/' a='*'
 */
export function invalidLambdaParameters(p: Parser): void {
  attempt(p, () => {
    many(p, paramNoDefault);
    const helper = slashWithDefault(p) ?? (many(p, paramWithDefault).count > 0 ? true : null);
    if (!helper) return;
    const a = p.peek();
    if (paramNoDefault(p)) p.raiseAt(a.line, "non-default argument follows default argument");
  });
  attempt(p, () => {
    many(p, paramNoDefault);
    const a = p.expectOp("(");
    if (!a || !p.expectName()) return;
    for (;;) {
      const mark = p.pos;
      if (!p.expectOp(",") || !p.expectName()) {
        p.pos = mark;
        break;
      }
    }
    p.expectOp(",");
    if (p.expectOp(")")) p.raiseAt(a.line, "Lambda expression parameters cannot be parenthesized");
  });
  attempt(p, () => {
    const a = p.expectOp("/");
    if (a && p.expectOp(",")) p.raiseAt(a.line, "at least one argument must precede /");
  });
  attempt(p, () => {
    if (!(slashNoDefault(p) ?? slashWithDefault(p))) return;
    many(p, paramMaybeDefault);
    const a = p.expectOp("/");
    if (a) p.raiseAt(a.line, "/ may appear only once");
  });
  attempt(p, () => {
    if (!slashNoDefault(p)) slashWithDefault(p);
    many(p, paramMaybeDefault);
    if (!p.expectOp("*") || !(p.expectOp(",") ?? paramNoDefault(p))) return;
    many(p, paramMaybeDefault);
    const a = p.expectOp("/");
    if (a) p.raiseAt(a.line, "/ must be ahead of *");
  });
  attempt(p, () => {
    if (many(p, paramMaybeDefault).count === 0 || !p.expectOp("/")) return;
    const a = p.expectOp("*");
    if (a) p.raiseAt(a.line, "expected comma between / and *");
  });
}

/**
 * invalid_lambda_star_etc:
 *   '*' (':' | ',' (':' | '**'))
 *   '*' lambda_param a='='
 *   '*' (lambda_param_no_default | ',') lambda_param_maybe_default* a='*' (lambda_param_no_default | ',')
 */
export function invalidLambdaStarEtc(p: Parser): void {
  attempt(p, () => {
    if (!p.expectOp("*")) return;
    if (p.expectOp(":") || (p.expectOp(",") && (p.expectOp(":") ?? p.expectOp("**")))) {
      p.raiseHere("named arguments must follow bare *");
    }
  });
  attempt(p, () => {
    if (!p.expectOp("*") || !p.expectName()) return;
    const a = p.expectOp("=");
    if (a) p.raiseAt(a.line, "var-positional argument cannot have default value");
  });
  attempt(p, () => {
    if (!p.expectOp("*") || !(paramNoDefault(p) ?? p.expectOp(","))) return;
    many(p, paramMaybeDefault);
    const a = p.expectOp("*");
    if (a && (paramNoDefault(p) ?? p.expectOp(","))) p.raiseAt(a.line, "* argument may appear only once");
  });
}

/**
 * invalid_lambda_kwds:
 *   '**' lambda_param a='='
 *   '**' lambda_param ',' a=lambda_param
 *   '**' lambda_param ',' a=('*'|'**'|'/')
 */
export function invalidLambdaKwds(p: Parser): void {
  attempt(p, () => {
    if (!p.expectOp("**") || !p.expectName()) return;
    const a = p.expectOp("=");
    if (a) p.raiseAt(a.line, "var-keyword argument cannot have default value");
  });
  const follows = "arguments cannot follow var-keyword argument";
  attempt(p, () => {
    if (!p.expectOp("**") || !p.expectName() || !p.expectOp(",")) return;
    const a = p.expectName();
    if (a) p.raiseAt(a.line, follows);
  });
  attempt(p, () => {
    if (!p.expectOp("**") || !p.expectName() || !p.expectOp(",")) return;
    const a = p.expectOp("*") ?? p.expectOp("**") ?? p.expectOp("/");
    if (a) p.raiseAt(a.line, follows);
  });
}
