/**
 * The composer language: the subset of Ruby that the proc-composer gem (and the real
 * service's command-line tool) writes procedures in, read by a grammar and compiled to tuples.
 */
export { compileProgram, compiling } from './compile'
export { parse, MAX_CHAIN, MAX_NESTING } from './parser'
export { drive, finish, type Steps } from './steps'
export { printProgram } from './print'
export { RbSyntaxError, type Position } from './syntax-error'
export type { Program } from './ast'
