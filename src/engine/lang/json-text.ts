import { Decimal, Timestamp, isExtension, type Value } from './value'

/**
 * A value as compact JSON text, as `JSON.stringify` writes it, but for a decimal, written as
 * the JSON number it is (`0.100000000000043298349238472398e15`, every digit kept), and a
 * timestamp, written as its ISO 8601 string (`"2023-11-14T22:13:20.123456789Z"`).
 */
export function jsonText(value: Value): string {
  return holdsExtension(value) ? write(value) : JSON.stringify(value)
}

function holdsExtension(root: Value): boolean {
  const stack = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (value === null || typeof value !== 'object') continue
    if (isExtension(value)) return true
    // One push per child: spreading a large array into `push` overflows the stack.
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child)
  }
  return false
}

/** Recursive: values are held to the depth limit before they get here. */
function write(value: Value): string {
  if (value instanceof Decimal) return value.text
  if (value instanceof Timestamp) return JSON.stringify(value.toISOString())
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(write).join(',')}]`
  const members = Object.entries(value).map(
    ([key, child]) => `${JSON.stringify(key)}:${write(child)}`,
  )
  return `{${members.join(',')}}`
}
