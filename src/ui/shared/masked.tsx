import { useState } from 'react'
import { CopyButton } from './copy-button'

/** The first and last characters of a secret or token, the rest hidden. */
export function mask(value: string): string {
  if (value.length <= 12) return '•'.repeat(value.length)
  return `${value.slice(0, 6)}…${value.slice(-4)}`
}

/** A secret or token, masked until revealed, with a copy button. */
export function Masked({ value, label }: { value: string; label: string }) {
  const [shown, setShown] = useState(false)
  return (
    <span className="masked">
      <code className="masked-value" data-testid="masked-value" title={shown ? value : undefined}>
        {shown ? value : mask(value)}
      </code>
      <button
        type="button"
        className="link"
        aria-pressed={shown}
        aria-label={`${shown ? 'Hide' : 'Reveal'} ${label}`}
        onClick={() => setShown(!shown)}
      >
        {shown ? 'Hide' : 'Reveal'}
      </button>
      <CopyButton text={value} label="Copy" />
    </span>
  )
}
