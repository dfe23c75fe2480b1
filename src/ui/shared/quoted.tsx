import type { ReactNode } from 'react'

/**
 * Names a person cannot see whole: characters that take no room or turn text around
 * (`admin` and `admin\u200B` look the same; `users\u202Egnp.exe` shows as `usersexe.png`).
 * Wherever the playground shows a name (a key, a bucket, an ability's limits, the log and the
 * trace), each such character is shown as its code point, marked, and a space at either end
 * of a name is marked too.
 */

/** Controls, format characters (bidirectional controls, zero widths), separators but the space. */
const HIDDEN =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u3164\uFFA0\u2800]/u

const NAMES: Record<number, string> = {
  0x00a0: 'NO-BREAK SPACE',
  0x00ad: 'SOFT HYPHEN',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0x0020: 'SPACE',
}

/** `U+200B`: how a hidden character is written on screen. */
export const codePoint = (char: string): string =>
  `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

const isHidden = (char: string) => HIDDEN.test(char)

/** Whether `text`, as a name, holds anything a person would not see. */
export const hidesCharacters = (text: string): boolean =>
  [...text].some(isHidden) || /^ | $/.test(text)

/** A name as plain text, hidden characters written `<U+200B>` (for menus and titles). */
export function visibleText(text: string): string {
  const chars = [...text]
  return chars
    .map((char, index) =>
      isHidden(char) || (char === ' ' && (index === 0 || index === chars.length - 1))
        ? `<${codePoint(char)}>`
        : char,
    )
    .join('')
}

function Mark({ char }: { char: string }) {
  const name = NAMES[char.codePointAt(0)!]
  const point = codePoint(char)
  return (
    <span className="hidden-char" title={`${point}${name ? ` ${name}` : ''}: hidden in the name`}>
      {point}
    </span>
  )
}

/**
 * A name, with what a person could not see in it shown and marked; `edges: false` for running
 * text, where a space at either end is only a space.
 */
export function Name({ text, edges = true }: { text: string; edges?: boolean }) {
  if (!(edges ? hidesCharacters(text) : [...text].some(isHidden))) return <>{text}</>
  const chars = [...text]
  const parts: ReactNode[] = []
  let plain = ''
  chars.forEach((char, index) => {
    const edgeSpace = edges && char === ' ' && (index === 0 || index === chars.length - 1)
    if (!isHidden(char) && !edgeSpace) {
      plain += char
      return
    }
    if (plain) parts.push(plain)
    plain = ''
    parts.push(<Mark key={index} char={char} />)
  })
  if (plain) parts.push(plain)
  return <>{parts}</>
}

/**
 * A sentence the engine or the form wrote, as written, with the names it quotes
 * (`` `keyv.get' `` in the service's own quoting, or `` `bearer <token>` ``) set as code, and
 * hidden characters shown wherever they are.
 */
export function Quoted({ text }: { text: string }) {
  const parts: ReactNode[] = []
  const quoted = /`([^`']*)[`']/g
  let last = 0
  for (let match = quoted.exec(text); match; match = quoted.exec(text)) {
    if (match.index > last)
      parts.push(<Name key={`t${last}`} text={text.slice(last, match.index)} edges={false} />)
    parts.push(
      <code key={match.index}>
        <Name text={match[1]!} />
      </code>,
    )
    last = match.index + match[0].length
  }
  if (last < text.length)
    parts.push(<Name key={`t${last}`} text={text.slice(last)} edges={false} />)
  return <>{parts}</>
}

/** Names (abilities, endpoints) as a list, each as code, shown as `Name` shows one. */
export function NameList({ names, className }: { names: readonly string[]; className: string }) {
  return (
    <ul className={className}>
      {names.map((name) => (
        <li key={name}>
          <code>
            <Name text={name} />
          </code>
        </li>
      ))}
    </ul>
  )
}
