/**
 * A thin stand-in for the parts of the `vscode` namespace the pure mapping constructs
 * (`VsShapes`). Only for the unit specs: everything else is tested in a real VS Code
 * (test/host, test/ui).
 */
import type { VsShapes } from '../../src/wire-mapping.ts';

class Position {
  line: number;
  character: number;
  constructor(line: number, character: number) {
    this.line = line;
    this.character = character;
  }
}
class Range {
  start: Position;
  end: Position;
  constructor(start: Position, end: Position) {
    this.start = start;
    this.end = end;
  }
}
class Diagnostic {
  range: Range;
  message: string;
  severity: number;
  source?: string;
  code?: string | number;
  tags?: number[];
  relatedInformation?: DiagnosticRelatedInformation[];
  constructor(range: Range, message: string, severity: number) {
    this.range = range;
    this.message = message;
    this.severity = severity;
  }
}
class Uri {
  fsPath: string;
  constructor(fsPath: string) {
    this.fsPath = fsPath;
  }
  static file(path: string): Uri {
    return new Uri(path);
  }
}
class Location {
  uri: Uri;
  range: Range;
  constructor(uri: Uri, range: Range) {
    this.uri = uri;
    this.range = range;
  }
}
class DiagnosticRelatedInformation {
  location: Location;
  message: string;
  constructor(location: Location, message: string) {
    this.location = location;
    this.message = message;
  }
}
class CodeActionKind {
  value: string;
  constructor(value: string) {
    this.value = value;
  }
  append(part: string): CodeActionKind {
    return new CodeActionKind(this.value === '' ? part : `${this.value}.${part}`);
  }
  static Empty = new CodeActionKind('');
  static QuickFix = new CodeActionKind('quickfix');
}

/** The stand-in namespace; enum values as VS Code defines them. */
export const vs = {
  Position,
  Range,
  Diagnostic,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  DiagnosticRelatedInformation,
  Location,
  Uri,
  CodeActionKind,
} as unknown as VsShapes;
