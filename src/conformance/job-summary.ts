/**
 * A CI job's summary as Markdown (decision 092): where it goes, how a section is appended
 * (never one holding a secret or token), and the pieces every section is written with. The
 * sections themselves are made by their producers (the commands, the kit's helpers).
 */
import { appendFileSync } from 'node:fs'

/** The variable GitHub Actions names a step's summary file by. */
export const SUMMARY_VARIABLE = 'GITHUB_STEP_SUMMARY'

/** Where a command's summary goes: `--summary FILE`, else `GITHUB_STEP_SUMMARY`, else nowhere. */
export function summaryFile(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  return flag || env[SUMMARY_VARIABLE] || undefined
}

/**
 * Appends `markdown` to `file` as a section of its own. `secrets` are the values no summary may
 * hold: a section holding one (or its first twelve characters) is replaced by a line saying it
 * was withheld (and `false` is returned), so a reviewer learns of it and no value is shown.
 */
export function appendSummary(
  file: string | undefined,
  markdown: string,
  secrets: Iterable<string> = [],
): boolean {
  if (file === undefined) return true
  const held = [...secrets].some((v) => v.length >= 8 && markdown.includes(v.slice(0, 12)))
  const section = held
    ? '### ⚠️ a section was withheld\n\nIt would have shown a secret or token.'
    : markdown
  appendFileSync(file, `${section.trimEnd()}\n\n`)
  return !held
}

/** Text as one cell of a Markdown table: one line, its pipes escaped. */
export const cell = (text: string) => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|')

/** Text as a fenced block that no backtick inside it ends. */
export function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${language}\n${text}\n${fence}`
}

/** Rows as a Markdown table. */
export function markdownTable(head: readonly string[], rows: readonly string[][]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n')
}
