/**
 * The account's files on the command line: `--import` read and checked as an import is,
 * `--export-on-exit` checked writable at start and written whole or not at all at the end.
 * Every error is a `StartError` naming the flag and the file.
 */
import { lstat, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { defaultLimits, Engine } from '../../engine'
import { readSnapshot } from '../../engine/account/snapshot'
import { locateJsonError } from '../../engine/wire/json-error'
import { schemaRef } from '../../conformance/schema-ref'
import { reason, StartError } from './serve-config'

/** Fails now, naming the flag and the file, if `file` could not be written at exit. */
export async function checkWritable(file: string): Promise<void> {
  const problem = (why: string) => new StartError(`--export-on-exit ${file}: ${why}`)
  if ((await lstat(file).catch(() => undefined))?.isDirectory()) {
    throw problem('is a folder; give a file name')
  }
  const probe = `${file}.${process.pid}.tmp`
  try {
    await writeFile(probe, '', { flag: 'wx' })
  } catch (error) {
    throw problem(`cannot write there (${reason(error)})`)
  }
  await rm(probe, { force: true })
}

/** The account from an export file, checked as an import is; errors name `--import` and the file. */
export async function readImport(file: string, limits: typeof defaultLimits) {
  const problem = (why: string) => new StartError(`--import ${file}: ${why}`)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw problem(`cannot read it (${reason(error)})`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const place = locateJsonError(text)
    throw problem(
      place
        ? `not valid JSON: unexpected ${place.found} at line ${place.line}, column ${place.column}`
        : `not valid JSON (${reason(error)})`,
    )
  }
  try {
    return { value, snapshot: await readSnapshot(value, limits) }
  } catch (error) {
    throw problem(reason(error))
  }
}

/** Writes the account to `file` whole or not at all: a temporary file, synced, then renamed. */
export async function writeExport(engine: Engine, file: string): Promise<void> {
  // `$schema` first, so an editor that opens the file checks it (decision 085); `--import`
  // reads past it.
  const snapshot = await engine.account.exportSnapshot()
  const text = JSON.stringify({ $schema: schemaRef('account', resolve(file)), ...snapshot })
  const temp = `${file}.${process.pid}.tmp`
  try {
    // It holds the account's secrets: for its owner alone.
    const handle = await open(temp, 'w', 0o600)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  // The rename itself on disk too.
  const folder = await open(dirname(resolve(file)), 'r')
  try {
    await folder.sync()
  } finally {
    await folder.close()
  }
}
