import { marked } from 'marked'

/**
 * A job summary's Markdown as a page laid out as a CI job's page shows one (GitHub-flavoured
 * Markdown by `marked`: tables, fenced diffs, folded `<details>`), for the README's picture.
 */
export function summaryPage(markdown: string): string {
  // The machines that make the pictures have no emoji font: the marks a section starts with
  // are drawn as GitHub colours them, in a font they have.
  const body = marked
    .parse(markdown, { gfm: true, async: false })
    .replaceAll('✅', '<span class="mark ok">✔</span>')
    .replaceAll('❌', '<span class="mark failed">✘</span>')
    .replaceAll('⚠️', '<span class="mark">⚠</span>')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Job summary</title><style>
  body { margin: 0; background: #f6f8fa; font: 14px/1.5 -apple-system, 'Segoe UI', 'Noto Sans', Helvetica, Arial, sans-serif; color: #1f2328; }
  main { max-width: 960px; margin: 24px auto; background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; padding: 8px 24px 16px; }
  header { font-weight: 600; border-bottom: 1px solid #d1d9e0; margin: 0 -24px 8px; padding: 8px 24px; }
  h3 { font-size: 1.1em; margin: 20px 0 8px; }
  code, pre { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f6f8fa; border-radius: 6px; }
  code { padding: 0.2em 0.4em; }
  pre { padding: 12px 16px; overflow: auto; }
  pre code { padding: 0; }
  table { border-collapse: collapse; margin: 8px 0; }
  th, td { border: 1px solid #d1d9e0; padding: 4px 12px; text-align: left; }
  tr:nth-child(2n) td { background: #f6f8fa; }
  summary { cursor: pointer; }
  .mark { display: inline-block; width: 1.2em; text-align: center; border-radius: 3px; color: #fff; background: #9a6700; }
  .ok { background: #1a7f37; }
  .failed { background: #cf222e; }
</style></head><body><main><header>Summary — service-playground</header>${body}</main></body></html>`
}
