import type { Json } from '../../engine'

/** Lines stay under this width when they can. */
const WIDTH = 72

const compact = (value: Json): string =>
  Array.isArray(value)
    ? `[${value.map(compact).join(', ')}]`
    : typeof value === 'object' && value !== null
      ? `{${Object.entries(value)
          .map(([key, member]) => `${JSON.stringify(key)}: ${compact(member)}`)
          .join(', ')}}`
      : JSON.stringify(value)

/**
 * Tuples as a person reads them: a tuple that fits on a line stays on one; a longer one keeps
 * its marker and name on its first line and puts each inner tuple on a line of its own. The
 * result is JSON, ready to edit.
 */
export function formatTuples(value: Json, indent = ''): string {
  const flat = compact(value)
  if (indent.length + flat.length <= WIDTH || typeof value !== 'object' || value === null) {
    return flat
  }
  const inner = `${indent}  `
  if (!Array.isArray(value)) {
    const members = Object.entries(value).map(
      ([key, member]) => `${inner}${JSON.stringify(key)}: ${formatTuples(member, inner)}`,
    )
    return `{\n${members.join(',\n')}\n${indent}}`
  }
  let head = 0
  while (head < value.length && typeof value[head] === 'string' && head < 2) head++
  const first = value.slice(0, head).map((item) => JSON.stringify(item))
  const rest = value.slice(head).map((item) => `${inner}${formatTuples(item, inner)}`)
  if (rest.length === 0) return flat
  return `[${first.join(', ')}${first.length ? ',' : ''}\n${rest.join(',\n')}\n${indent}]`
}
