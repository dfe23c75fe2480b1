// What a GitHub Actions runner gives a step and takes from it, read and written as the runner
// does: inputs in `INPUT_<NAME>`, and the files named by `GITHUB_OUTPUT`, `GITHUB_ENV`,
// `GITHUB_STATE` (read back by the post step as `STATE_<name>`) and `GITHUB_STEP_SUMMARY`.
// Plain JavaScript with no packages: the runner runs it from the action's checkout as it is.
import { appendFileSync } from 'node:fs'

/** An input as the runner passes it (`with: { coverage-min: 80 }` is `INPUT_COVERAGE-MIN`), trimmed. */
export function input(name) {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim()
}

/** Appends `name=value` to the file a runner variable names; a value is one line. */
function command(variable, name, value) {
  const file = process.env[variable]
  const text = String(value)
  if (/[\r\n]/.test(text)) throw new Error(`${name}: a value of one line was expected`)
  if (!file)
    throw new Error(`${variable} is not set: this script runs as a step of a GitHub Actions job`)
  appendFileSync(file, `${name}=${text}\n`)
}

export const setOutput = (name, value) => command('GITHUB_OUTPUT', name, value)
export const exportVariable = (name, value) => command('GITHUB_ENV', name, value)
export const saveState = (name, value) => command('GITHUB_STATE', name, value)
/** What the main step saved, as the post step reads it. */
export const state = (name) => process.env[`STATE_${name}`] ?? ''

/** Hides `value` in every later line of the job's log. */
export function mask(value) {
  if (value) console.log(`::add-mask::${value}`)
}

/** Appends Markdown to the job's summary, when the runner gives one. */
export function summary(markdown) {
  const file = process.env.GITHUB_STEP_SUMMARY
  if (file) appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`)
}

/** An error annotation on the job's page, as `core.setFailed` writes it. */
export function error(message) {
  console.log(
    `::error::${message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}`,
  )
}
