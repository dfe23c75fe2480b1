/**
 * The README and the docs as a reader follows them: every relative link names a file of this
 * repository that exists (a heading too, when it names one), and none sends the reader outside
 * the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Every Markdown file under `dir`, deepest last. */
function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return markdownUnder(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}

const FILES = [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs'))]

/** The text outside fenced code blocks, where links are links. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '')

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, `-` for spaces. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>()
  for (const [, heading] of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6} +(.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-')
    let anchor = slug
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`
    anchors.add(anchor)
  }
  return anchors
}

/** A file's relative links, `[text](target)`, without those to other sites or to itself. */
function linksOf(file: string): string[] {
  return [...prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target!)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target))
}

describe('the README and the docs', () => {
  it('find them all', () => {
    expect(FILES.map((file) => relative(ROOT, file))).toEqual(
      expect.arrayContaining(['README.md', 'docs/guides/playground.md', 'docs/node-api.md']),
    )
  })

  it.each(FILES.map((file) => [relative(ROOT, file), file]))(
    '%s links only to files and headings that exist, inside the repository',
    (_name, file) => {
      const broken: string[] = []
      for (const target of linksOf(file)) {
        const [path, anchor] = target.split('#') as [string, string | undefined]
        const to = path === '' ? file : resolve(dirname(file), decodeURIComponent(path))
        if (relative(ROOT, to).startsWith('..')) broken.push(`${target}: outside the repository`)
        else if (!existsSync(to)) broken.push(`${target}: no such file`)
        else if (
          anchor !== undefined &&
          to.endsWith('.md') &&
          statSync(to).isFile() &&
          !anchorsOf(to).has(anchor)
        )
          broken.push(`${target}: no such heading`)
      }
      expect(broken).toEqual([])
    },
  )

  it.each(FILES.map((file) => [relative(ROOT, file), file]))(
    '%s names no path outside the repository',
    (_name, file) => {
      const text = readFileSync(file, 'utf8')
      expect(text.match(/(?:^|[\s(`'"])\/work\/|\.\.\/shared\b/gm) ?? []).toEqual([])
    },
  )
})
