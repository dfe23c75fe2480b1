/** A place in the source: line and column from 1, columns in characters (code points). */
export interface Position {
  line: number
  column: number
  /** Where it is in the text, in UTF-16 code units (what a JavaScript editor counts). */
  offset: number
}

/**
 * A program the language cannot read, or cannot turn into tuples: where, and what was
 * expected there. `core.compile` answers it as a 400 naming the line and the column.
 */
export class RbSyntaxError extends Error {
  readonly line: number
  readonly column: number
  readonly offset: number

  constructor(at: Position, message: string) {
    super(message)
    this.name = 'RbSyntaxError'
    this.line = at.line
    this.column = at.column
    this.offset = at.offset
  }

  /** `line 3, column 7: expected …`, as the 400 says it. */
  get located(): string {
    return `line ${this.line}, column ${this.column}: ${this.message}`
  }
}
