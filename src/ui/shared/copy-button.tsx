import { useState } from 'react'

/**
 * Copies `text` to the clipboard, and says so for a moment. `text` may be a function, called
 * on click: what a long value becomes (a curl command of a pasted megabyte) is made only then.
 */
export function CopyButton({
  text,
  label = 'Copy',
}: {
  text: string | (() => string)
  label?: string
}) {
  const [copied, setCopied] = useState(false)
  async function copy() {
    try {
      await navigator.clipboard.writeText(typeof text === 'function' ? text() : text)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {
      // The clipboard can be refused (no permission, no focus): nothing is lost, the text stays shown.
    }
  }
  return (
    <button type="button" className="copy" onClick={() => void copy()} aria-live="polite">
      {copied ? 'Copied' : label}
    </button>
  )
}
