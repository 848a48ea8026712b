import MarkdownIt from 'markdown-it';

/**
 * The console's markdown renderer. Model output is untrusted, so:
 * - `html: false`: raw HTML (`<script>`, `<img onerror>`) is escaped and shows as text;
 * - links and images pass markdown-it's `validateLink`, which refuses `javascript:`,
 *   `vbscript:` and `file:` URLs; `data:` is refused too (markdown-it lets some images
 *   through), so no URL can carry a document of its own;
 * - every link opens in a new tab with `rel="noopener noreferrer"`;
 * - table alignment becomes a class, since the CSP refuses inline `style` attributes;
 * - a table sits in a focusable, labelled region that scrolls sideways, so a wide table on a
 *   phone can be scrolled by keyboard (axe's `scrollable-region-focusable`);
 * - headings move two levels down (`#` → `<h3>`, at most `<h6>`): a document sits under the
 *   page's `<h1>` (the project) and `<h2>` (Documents), and a page has one `<h1>`.
 *
 * @example
 * renderMarkdown('[x](javascript:alert(1))'); // '<p>[x](javascript:alert(1))</p>\n'
 */
export function renderMarkdown(source: string): string {
  return md.render(source, { tables: 0 });
}

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const defaultValidateLink = md.validateLink.bind(md);
md.validateLink = (url: string): boolean => {
  // markdown-it normalizes before this test; trim and lower-case again to be sure.
  const scheme = url.trim().toLowerCase();
  if (scheme.startsWith('data:')) return false;
  return defaultValidateLink(url);
};

const defaultLinkOpen = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  if (token) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
  }
  return defaultLinkOpen
    ? defaultLinkOpen(tokens, idx, options, env, self)
    : self.renderToken(tokens, idx, options);
};

md.renderer.rules.table_open = (tokens, idx, options, env, self) => {
  const counter = env as { tables: number };
  counter.tables += 1;
  const open = `<div class="table-scroll" role="region" tabindex="0" aria-label="Table ${counter.tables}">\n`;
  return open + self.renderToken(tokens, idx, options);
};
md.renderer.rules.table_close = (tokens, idx, options, _env, self) =>
  `${self.renderToken(tokens, idx, options)}</div>\n`;

const ALIGNMENTS = new Set(['left', 'center', 'right']);
for (const rule of ['th_open', 'td_open'] as const) {
  md.renderer.rules[rule] = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    const style = token?.attrGet('style');
    if (token && style !== null && style !== undefined) {
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      const align = /text-align:\s*(\w+)/.exec(String(style))?.[1];
      if (align !== undefined && ALIGNMENTS.has(align)) token.attrJoin('class', `align-${align}`);
    }
    return self.renderToken(tokens, idx, options);
  };
}

/** How many levels a document's headings move down. */
const HEADING_SHIFT = 2;
for (const rule of ['heading_open', 'heading_close'] as const) {
  md.renderer.rules[rule] = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    const level = Number(token?.tag.slice(1));
    if (token && Number.isInteger(level)) token.tag = `h${Math.min(6, level + HEADING_SHIFT)}`;
    return self.renderToken(tokens, idx, options);
  };
}
