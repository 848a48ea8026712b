import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

describe('renderMarkdown', () => {
  it('shows raw HTML as text: no script element, no event handler attribute', () => {
    const html = renderMarkdown(
      '# Notes\n\n<script>alert(1)</script>\n\nText <img src=x onerror="alert(2)"> here.\n\n<a href="javascript:alert(3)">x</a>',
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<a href="javascript/i);
    // Escaped, so a reader sees what the model wrote.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'javascript&#58;alert(1)',
    '&#x6A;avascript:alert(1)',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'data:image/png;base64,iVBORw0KGgo=',
  ])('refuses the link %s: no anchor, no href', (url) => {
    const html = renderMarkdown(`[click](${url}) and ![pic](${url})`);
    expect(html).not.toContain('<a ');
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/href=|src=/);
  });

  it('leaves a scheme hidden by encoding as a harmless relative address', () => {
    const html = renderMarkdown('[a](java&#x09;script:alert(1)) [b](java%0Ascript:alert(1))');
    const urls = [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(urls).toHaveLength(2);
    for (const url of urls) {
      // As a browser resolves it: a path on the console's own origin, never a script.
      expect(new URL(url, 'https://console.test/').protocol).toBe('https:');
    }
  });

  it('opens links in a new tab without opener or referrer', () => {
    const html = renderMarkdown('[PGS](https://example.com/docs) and https://example.org');
    expect(html).toContain(
      '<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">PGS</a>',
    );
    // Linkified bare URLs get the same treatment.
    expect(html).toContain(
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">https://example.org</a>',
    );
  });

  it('renders tables, with alignment as classes instead of inline styles', () => {
    const html = renderMarkdown(
      '| Risk | Impact | Cost |\n| :--- | :----: | ---: |\n| Leaks | High | 3 |\n',
    );
    expect(html).toContain('<table>');
    expect(html).toContain('<th class="align-left">Risk</th>');
    expect(html).toContain('<th class="align-center">Impact</th>');
    expect(html).toContain('<td class="align-right">3</td>');
    expect(html).not.toContain('style=');
  });

  it('puts each table in its own focusable, labelled region that scrolls sideways', () => {
    const table = '| A | B |\n| - | - |\n| 1 | 2 |\n';
    const html = renderMarkdown(`${table}\ntext\n\n${table}`);
    expect(html).toContain(
      '<div class="table-scroll" role="region" tabindex="0" aria-label="Table 1">\n<table>',
    );
    expect(html).toContain('aria-label="Table 2"');
    expect(html.match(/<\/table>\n<\/div>/g)).toHaveLength(2);
  });

  it('renders fenced code blocks escaped, with their language as a class', () => {
    const html = renderMarkdown('```ts\nconst a = 1 < 2 && "<b>";\n```\n');
    expect(html).toBe(
      '<pre><code class="language-ts">const a = 1 &lt; 2 &amp;&amp; &quot;&lt;b&gt;&quot;;\n</code></pre>\n',
    );
  });

  it('moves headings two levels down, so the page keeps one h1', () => {
    const html = renderMarkdown('# Brief\n\n## Scope\n\n#### Deep\n\n###### Deepest');
    expect(html).toContain('<h3>Brief</h3>');
    expect(html).toContain('<h4>Scope</h4>');
    expect(html).toContain('<h6>Deep</h6>');
    expect(html).toContain('<h6>Deepest</h6>');
    expect(html).not.toMatch(/<h[12]/);
  });
});
