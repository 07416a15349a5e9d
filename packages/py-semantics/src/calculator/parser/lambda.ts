/**
 * lambdef: 'lambda' [lambda_params] ':' expression (Python 3.11 grammar). A lambda is never
 * evaluated here; it only has to be accepted or rejected where CPython does.
 */
import type { Expr } from "../ast.ts";
import { expression } from "./expressions.ts";
import { invalidLambdaKwds, invalidLambdaParameters, invalidLambdaStarEtc } from "./lambda-invalid.ts";
import type { Parser } from "./state.ts";

interface Params {
  readonly count: number;
  readonly defaults: readonly Expr[];
}

export function lambdef(p: Parser): Expr | null {
  const start = p.pos;
  const keyword = p.expectKeyword("lambda");
  if (!keyword) return null;
  const params = lambdaParameters(p) ?? { count: 0, defaults: [] };
  if (p.expectOp(":")) {
    // CPython's lambdef keeps one more parser level than these rules while parsing the body.
    p.enter();
    const body = expression(p);
    p.leave();
    if (body) {
      let argsDepth = params.count > 0 ? 1 : 0;
      for (const d of params.defaults) argsDepth = Math.max(argsDepth, d.depth);
      return { type: "Lambda", line: keyword.line, depth: 1 + Math.max(body.depth, argsDepth + 1) };
    }
  }
  p.pos = start;
  return null;
}

export type Run = { count: number; defaults: Expr[] };
const empty = (): Run => ({ count: 0, defaults: [] });
const merge = (...runs: (Run | null)[]): Params => ({
  count: runs.reduce((n, r) => n + (r?.count ?? 0), 0),
  defaults: runs.flatMap((r) => r?.defaults ?? []),
});

/** The five alternatives of lambda_parameters, in order. */
function lambdaParameters(p: Parser): Params | null {
  const start = p.pos;
  if (p.callInvalidRules) invalidLambdaParameters(p);
  const alternatives: (() => Params | null)[] = [
    () => {
      const slash = slashNoDefault(p);
      return slash && merge(slash, many(p, paramNoDefault), many(p, paramWithDefault), starEtc(p));
    },
    () => {
      const slash = slashWithDefault(p);
      return slash && merge(slash, many(p, paramWithDefault), starEtc(p));
    },
    () => {
      const plain = many(p, paramNoDefault);
      return plain.count > 0 ? merge(plain, many(p, paramWithDefault), starEtc(p)) : null;
    },
    () => {
      const withDefault = many(p, paramWithDefault);
      return withDefault.count > 0 ? merge(withDefault, starEtc(p)) : null;
    },
    () => {
      const star = starEtc(p);
      return star && merge(star);
    },
  ];
  for (const alternative of alternatives) {
    const result = alternative();
    if (result) return result;
    p.pos = start;
  }
  return null;
}

export function many(p: Parser, item: (p: Parser) => Run | null): Run {
  const run = empty();
  for (;;) {
    const next = item(p);
    if (!next) return run;
    run.count += next.count;
    run.defaults.push(...next.defaults);
  }
}

/** `param` followed by ',' or (without consuming it) ':'. */
function endsParam(p: Parser): boolean {
  return p.expectOp(",") !== null || p.isOp(":");
}

/** lambda_param_no_default: lambda_param ',' | lambda_param &':' */
export function paramNoDefault(p: Parser): Run | null {
  const start = p.pos;
  if (p.expectName() && endsParam(p)) return { count: 1, defaults: [] };
  p.pos = start;
  return null;
}

/** default: '=' expression | invalid_default */
function defaultValue(p: Parser): Expr | null {
  const start = p.pos;
  const equals = p.expectOp("=");
  if (equals) {
    const value = expression(p);
    if (value) return value;
    p.pos = start + 1;
    if (p.callInvalidRules && (p.isOp(")") || p.isOp(","))) p.raiseAt(equals.line, "expected default value expression");
  }
  p.pos = start;
  return null;
}

/** lambda_param_with_default: lambda_param default (',' | &':') */
export function paramWithDefault(p: Parser): Run | null {
  const start = p.pos;
  if (p.expectName()) {
    const value = defaultValue(p);
    if (value && endsParam(p)) return { count: 1, defaults: [value] };
  }
  p.pos = start;
  return null;
}

/** lambda_param_maybe_default: lambda_param default? (',' | &':') */
export function paramMaybeDefault(p: Parser): Run | null {
  const start = p.pos;
  if (p.expectName()) {
    const value = defaultValue(p);
    if (endsParam(p)) return { count: 1, defaults: value ? [value] : [] };
  }
  p.pos = start;
  return null;
}

/** '/' followed by ',' or (without consuming it) ':'. */
function slashEnd(p: Parser): boolean {
  const start = p.pos;
  if (p.expectOp("/") && endsParam(p)) return true;
  p.pos = start;
  return false;
}

/** lambda_slash_no_default: lambda_param_no_default+ '/' (',' | &':') */
export function slashNoDefault(p: Parser): Run | null {
  const start = p.pos;
  const params = many(p, paramNoDefault);
  if (params.count > 0 && slashEnd(p)) return params;
  p.pos = start;
  return null;
}

/** lambda_slash_with_default: lambda_param_no_default* lambda_param_with_default+ '/' (',' | &':') */
export function slashWithDefault(p: Parser): Run | null {
  const start = p.pos;
  const plain = many(p, paramNoDefault);
  const withDefault = many(p, paramWithDefault);
  if (withDefault.count > 0 && slashEnd(p)) {
    return { count: plain.count + withDefault.count, defaults: withDefault.defaults };
  }
  p.pos = start;
  return null;
}

/**
 * lambda_star_etc: '*' lambda_param_no_default lambda_param_maybe_default* [lambda_kwds]
 *                | '*' ',' lambda_param_maybe_default+ [lambda_kwds]
 *                | lambda_kwds
 */
function starEtc(p: Parser): Run | null {
  const start = p.pos;
  if (p.callInvalidRules) invalidLambdaStarEtc(p);
  if (p.expectOp("*")) {
    const afterStar = p.pos;
    const vararg = paramNoDefault(p);
    if (vararg) {
      const rest = many(p, paramMaybeDefault);
      const kw = kwds(p);
      return { count: 1 + rest.count + (kw ? 1 : 0), defaults: rest.defaults };
    }
    p.pos = afterStar;
    if (p.expectOp(",")) {
      const rest = many(p, paramMaybeDefault);
      if (rest.count > 0) {
        const kw = kwds(p);
        return { count: rest.count + (kw ? 1 : 0), defaults: rest.defaults };
      }
    }
    p.pos = start;
  }
  return kwds(p);
}

/** lambda_kwds: '**' lambda_param_no_default */
function kwds(p: Parser): Run | null {
  const start = p.pos;
  if (p.callInvalidRules) invalidLambdaKwds(p);
  if (p.expectOp("**") && paramNoDefault(p)) return { count: 1, defaults: [] };
  p.pos = start;
  return null;
}
