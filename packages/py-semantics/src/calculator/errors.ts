/** A Python exception raised while evaluating, reduced to what the tool prints: `str(exc)`. */
export class CalcError {
  readonly pyType: string;
  readonly message: string;
  constructor(pyType: string, message: string) {
    this.pyType = pyType;
    this.message = message;
  }
}

export const zeroDivision = (message: string): CalcError => new CalcError("ZeroDivisionError", message);
export const overflow = (message: string): CalcError => new CalcError("OverflowError", message);
export const typeError = (message: string): CalcError => new CalcError("TypeError", message);
