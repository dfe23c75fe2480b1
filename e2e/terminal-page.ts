/**
 * A test runner's output as a terminal shows it, for the README's picture: monospaced, light on
 * dark, long lines (a link) wrapped where they must be.
 */
export function terminalPage(text: string): string {
  const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Terminal</title><style>
  body { margin: 0; background: #1e1e1e; color: #d4d4d4; }
  pre { margin: 0; padding: 16px 20px; font: 13px/1.5 ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-all; }
  .fail { color: #fff; background: #cd3131; padding: 0 4px; font-weight: bold; }
  .link { color: #4fc1ff; }
</style></head><body><pre>${escaped
    .replace(/^ FAIL /m, '<span class="fail"> FAIL </span>')
    .replace(
      /(https?:\/\/\S+#r=v1\.[A-Za-z0-9_-]+)/,
      '<span class="link">$1</span>',
    )}</pre></body></html>`
}
