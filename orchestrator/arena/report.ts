/** Collects validator diagnostics in the order they are found (the order the CLI prints them). */
import { diagnostic, type Diagnostic } from "./diagnostics.ts";

export interface FileReport {
  error(line: number, text: string): void;
  warn(line: number, text: string): void;
}

export class Report {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];

  /** A reporter whose messages are prefixed with `shown` (the file as displayed). */
  file(shown: string): FileReport {
    return {
      error: (line, text) => void this.errors.push(diagnostic(shown, line, text)),
      warn: (line, text) => void this.warnings.push(diagnostic(shown, line, text)),
    };
  }
}
