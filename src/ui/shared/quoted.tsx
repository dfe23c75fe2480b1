import type { ReactNode } from 'react'

/**
 * A sentence the engine wrote, as it wrote it, with the names it quotes (`` `keyv.get' `` in
 * the service's own quoting, or `` `bearer <token>` ``) set as code.
 */
export function Explained({ text }: { text: string }) {
  const parts: ReactNode[] = []
  const quoted = /`([^`']*)[`']/g
  let last = 0
  for (let match = quoted.exec(text); match; match = quoted.exec(text)) {
    if (match.index > last) parts.push(text.slice(last, match.index))
    parts.push(<code key={match.index}>{match[1]}</code>)
    last = match.index + match[0].length
  }
  if (last < text.length) parts.push(text.slice(last))
  return <>{parts}</>
}
