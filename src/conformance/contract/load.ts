import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { CaseFileError, parseCaseFile, type Case } from '../cases'

/**
 * The contracts in the named files, and in the `.json` files of named directories, each
 * checked against the case schema; their ids start with the path as given.
 */
export function loadContracts(paths: readonly string[]): Case[] {
  return paths.flatMap((path) => {
    let isDirectory: boolean
    try {
      isDirectory = statSync(path).isDirectory()
    } catch {
      throw new CaseFileError(path, 'no such file')
    }
    const files = isDirectory
      ? readdirSync(path)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => join(path, name))
      : [path]
    return files.flatMap((file) => parseCaseFile(file, readFileSync(file, 'utf8')))
  })
}
