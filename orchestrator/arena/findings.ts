/** Collects validator diagnostics in the order they are found (the order the CLI prints them). */
import { diagnostic, type Diagnostic } from "./diagnostics.ts";

export interface FileFindings {
  error(line: number, text: string): void;
  warn(line: number, text: string): void;
}

export class Findings {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];

  /** The findings of one file, each prefixed with `shown` (the file as displayed). */
  file(shown: string): FileFindings {
    return {
      error: (line, text) => void this.errors.push(diagnostic(shown, line, text)),
      warn: (line, text) => void this.warnings.push(diagnostic(shown, line, text)),
    };
  }
}
