import { CASE_FILE_VERSION, type CaseFile } from '../cases'

const WIDTH = 100

/** A value on one line. */
function inline(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`
  const entries = Object.entries(value)
  if (entries.length === 0) return '{}'
  return `{ ${entries.map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`).join(', ')} }`
}

/** Objects that hold a step or more stay open, whatever their length: a file reads by steps. */
const open = (value: object) =>
  !Array.isArray(value) &&
  ('steps' in value || 'setup' in value || 'cases' in value || 'call' in value || 'expect' in value)

/** `lead` characters stand before the value on its line, `tail` after it (a comma). */
function print(value: unknown, indent: string, lead: number, tail: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    const flat = inline(value)
    if (lead + flat.length + tail <= WIDTH) return flat
    const items = value.map(
      (item, i) => inner + print(item, inner, inner.length, i < value.length - 1 ? 1 : 0),
    )
    return `[\n${items.join(',\n')}\n${indent}]`
  }
  const entries = Object.entries(value)
  if (entries.length === 0) return '{}'
  const flat = inline(value)
  if (!open(value) && lead + flat.length + tail <= WIDTH) return flat
  const lines = entries.map(([key, item], i) => {
    const name = `${JSON.stringify(key)}: `
    return (
      inner + name + print(item, inner, inner.length + name.length, i < entries.length - 1 ? 1 : 0)
    )
  })
  return `{\n${lines.join(',\n')}\n${indent}}`
}

/**
 * A contract as its file's text: two-space JSON laid out as Prettier lays out JSON (a value on
 * one line when it fits in 100 columns; cases and steps always open), so a recorded contract
 * can be committed as it is and re-recorded to the same bytes.
 */
export function formatContract(file: CaseFile): string {
  return `${print(file, '', 0, 0)}\n`
}

/**
 * `file` with `recorded`'s cases in it: each replaces the case of the same name where it
 * stands, and a new one goes before the first case whose name sorts after its own. A file the
 * kit writes test by test so keeps its cases in name order, whatever order the tests ran in
 * (parallel workers included), and the same tests write the same bytes.
 */
export function addToContract(file: CaseFile | undefined, recorded: CaseFile): CaseFile {
  const cases = [...(file?.cases ?? [])]
  for (const added of recorded.cases) {
    const at = cases.findIndex((c) => c.name === added.name)
    if (at >= 0) {
      cases[at] = added
      continue
    }
    const after = cases.findIndex((c) => c.name > added.name)
    cases.splice(after < 0 ? cases.length : after, 0, added)
  }
  // A case with a setup makes the file version 2; otherwise the file keeps what it said.
  const version = cases.some((c) => c.setup) ? CASE_FILE_VERSION : file?.version
  return {
    ...(version === undefined ? {} : { version }),
    description: file?.description ?? recorded.description,
    cases,
  }
}
