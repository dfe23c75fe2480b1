// Where the kit's command is: the `service-playground` the job's project installed, so the
// action runs the version the project's tests use. Nothing is downloaded.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** `[node, <the kit's cli.js>]` for the project in `directory`, or an error that says what to do. */
export function kitCommand(directory) {
  const require = createRequire(join(directory, 'package.json'))
  let manifest
  try {
    manifest = require.resolve('service-playground/package.json')
  } catch {
    throw new Error(
      `service-playground is not installed in ${directory}: run npm ci (or npm i -D service-playground) in a step before this one, or set working-directory`,
    )
  }
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'))
  const path = typeof bin === 'string' ? bin : bin?.['service-playground']
  if (!path) throw new Error(`${manifest} names no service-playground command`)
  return [process.execPath, join(dirname(manifest), path)]
}
