/**
 * The parsed expression, kept only as detailed as the calculator and CPython's error messages need:
 * arithmetic nodes in full, everything else as an opaque node the evaluator rejects unseen.
 */

export type BinOperator = "+" | "-" | "*" | "/" | "//" | "%" | "**" | "@" | "<<" | ">>" | "&" | "^" | "|";
export type UnaryOperator = "+" | "-" | "~" | "not";

export type Constant =
  | { readonly kind: "int"; readonly value: bigint }
  | { readonly kind: "float"; readonly value: number }
  | { readonly kind: "complex"; readonly imag: number }
  | { readonly kind: "bool"; readonly value: boolean }
  /** Code points, not a JS string: `'\ud83d\ude00'` is two code points in Python, one in JS. */
  | { readonly kind: "str"; readonly codePoints: readonly number[] }
  | { readonly kind: "bytes"; readonly bytes: readonly number[] }
  | { readonly kind: "None" }
  | { readonly kind: "Ellipsis" };

export type OpaqueType =
  | "Attribute" | "Subscript" | "Call" | "Lambda" | "BoolOp" | "IfExp" | "Dict" | "Set" | "ListComp"
  | "SetComp" | "DictComp" | "GeneratorExp" | "Await" | "Yield" | "YieldFrom" | "JoinedStr" | "NamedExpr"
  | "Slice"
  /** A comprehension's `for` clause (not an expression in CPython, but a level of its AST). */
  | "Comprehension";

interface Located {
  /** Line of the node's first token: where CPython reports errors about it. */
  readonly line: number;
  /** Nesting depth of the node in CPython's AST, for its recursion limits. */
  readonly depth: number;
}

export type Expr =
  | (Located & { readonly type: "Constant"; readonly value: Constant })
  | (Located & { readonly type: "BinOp"; readonly op: BinOperator; readonly left: Expr; readonly right: Expr })
  | (Located & { readonly type: "UnaryOp"; readonly op: UnaryOperator; readonly operand: Expr })
  | (Located & { readonly type: "Name"; readonly id: string })
  | (Located & { readonly type: "Tuple" | "List"; readonly elts: readonly Expr[] })
  | (Located & { readonly type: "Starred"; readonly value: Expr })
  | (Located & { readonly type: "Compare"; readonly left: Expr; readonly firstOp: string })
  | (Located & { readonly type: OpaqueType });

/** 1 + the deepest child; `extra` adds intermediate CPython nodes (keyword, comprehension, arguments). */
export function depthOf(children: readonly (Expr | null | undefined)[], extra = 0): number {
  let deepest = 0;
  for (const child of children) if (child && child.depth > deepest) deepest = child.depth;
  return 1 + deepest + (deepest > 0 ? extra : 0);
}

export function constant(value: Constant, line: number): Expr {
  return { type: "Constant", value, line, depth: 1 };
}

export function opaque(type: OpaqueType, line: number, children: readonly (Expr | null | undefined)[], extra = 0): Expr {
  return { type, line, depth: depthOf(children, extra) };
}

export function binOp(op: BinOperator, left: Expr, right: Expr): Expr {
  return { type: "BinOp", op, left, right, line: left.line, depth: depthOf([left, right]) };
}

export function unaryOp(op: UnaryOperator, operand: Expr, line: number): Expr {
  return { type: "UnaryOp", op, operand, line, depth: operand.depth + 1 };
}

export function sequence(type: "Tuple" | "List", elts: readonly Expr[], line: number): Expr {
  return { type, elts, line, depth: depthOf(elts) };
}

/** CPython's `_PyPegen_get_expr_name`: how error messages name a kind of expression. */
export function exprName(e: Expr): string {
  switch (e.type) {
    case "Attribute":
      return "attribute";
    case "Subscript":
      return "subscript";
    case "Starred":
      return "starred";
    case "Name":
      return "name";
    case "List":
      return "list";
    case "Tuple":
      return "tuple";
    case "Lambda":
      return "lambda";
    case "Call":
      return "function call";
    case "BoolOp":
    case "BinOp":
    case "UnaryOp":
      return "expression";
    case "GeneratorExp":
      return "generator expression";
    case "Yield":
    case "YieldFrom":
      return "yield expression";
    case "Await":
      return "await expression";
    case "ListComp":
      return "list comprehension";
    case "SetComp":
      return "set comprehension";
    case "DictComp":
      return "dict comprehension";
    case "Dict":
      return "dict literal";
    case "Set":
      return "set display";
    case "JoinedStr":
      return "f-string expression";
    case "Compare":
      return "comparison";
    case "IfExp":
      return "conditional expression";
    case "NamedExpr":
      return "named expression";
    case "Slice":
      return "slice";
    case "Comprehension":
      return "comprehension";
    case "Constant":
      switch (e.value.kind) {
        case "None":
          return "None";
        case "Ellipsis":
          return "ellipsis";
        case "bool":
          return e.value.value ? "True" : "False";
        default:
          return "literal";
      }
  }
}

/**
 * CPython's `_PyPegen_get_invalid_target` for `for` targets: the first sub-expression that cannot
 * be assigned to, looking through tuples, lists, starred items and the `a in b` a `for` clause
 * parses into a comparison.
 */
export function invalidForTarget(e: Expr): Expr | null {
  switch (e.type) {
    case "Tuple":
    case "List":
      for (const elt of e.elts) {
        const bad = invalidForTarget(elt);
        if (bad) return bad;
      }
      return null;
    case "Starred":
      return invalidForTarget(e.value);
    case "Compare":
      return e.firstOp === "in" ? invalidForTarget(e.left) : null;
    case "Name":
    case "Subscript":
    case "Attribute":
      return null;
    default:
      return e;
  }
}
