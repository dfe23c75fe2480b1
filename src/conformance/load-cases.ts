import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { CaseFileError, parseCaseFile, type Case } from './cases'

let casesDir: string | undefined

/**
 * Where the conformance cases are read from: `conformance/cases` under the working directory
 * unless `setCasesDir` said otherwise (the installed kit keeps them beside its own code).
 */
export function getCasesDir(): string {
  return casesDir ?? resolve('conformance', 'cases')
}

export function setCasesDir(dir: string): void {
  casesDir = dir
}

/** Every case in `dir`, file by file in name order. */
export function loadCases(dir = getCasesDir()): Case[] {
  if (!existsSync(dir)) {
    throw new CaseFileError(dir, 'no such directory of conformance cases (see setCasesDir)')
  }
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => parseCaseFile(name, readFileSync(join(dir, name), 'utf8')))
}
