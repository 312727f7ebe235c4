// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import i18n from '#web/i18n';
import MarkdownRender from './markdown-render';

const renderMarkdown = (text: string) => render(<MarkdownRender>{text}</MarkdownRender>).container;

describe('a result written in GitHub-flavoured Markdown', () => {
  afterEach(cleanup);
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows a table as a table, with its header and cells', () => {
    const root = renderMarkdown('| Mes | Ventas |\n| --- | ---: |\n| Enero | 120 |\n| Febrero | 98 |');
    const table = root.querySelector('table');
    expect(table).not.toBeNull();
    expect([...root.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Mes', 'Ventas']);
    expect([...root.querySelectorAll('tbody tr')].map((tr) => tr.textContent)).toEqual([
      'Enero120',
      'Febrero98',
    ]);
    // A wide table scrolls inside its own box rather than widening the page.
    expect(table?.parentElement?.className).toContain('overflow-x-auto');
  });

  it('strikes through ~~text~~ and shows a task list with its boxes ticked or not, no bullets', () => {
    const root = renderMarkdown('~~old price~~ new price\n\n- [x] sent\n- [ ] paid');
    expect(root.querySelector('del')?.textContent).toBe('old price');
    const boxes = [...root.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    expect(boxes.map((b) => [b.checked, b.disabled])).toEqual([
      [true, true],
      [false, true],
    ]);
    expect(root.querySelector('ul')?.className).toContain('list-none');
  });

  it('keeps plain line breaks of a text', () => {
    const root = renderMarkdown('Calle Mayor 1\n28013 Madrid\nEspaña');
    const paragraph = root.querySelector('p');
    expect(paragraph?.querySelectorAll('br')).toHaveLength(2);
    // Each break is followed by a newline in the markup, which the browser does not show.
    expect(paragraph?.innerHTML.replace(/\n/g, '')).toBe('Calle Mayor 1<br>28013 Madrid<br>España');
  });

  it('leaves code blocks as they were written', () => {
    const root = renderMarkdown('```\nline one\nline two\n```');
    expect(root.querySelector('pre')?.textContent).toBe('line one\nline two\n');
    expect(root.querySelector('pre br')).toBeNull();
  });

  it('drops raw HTML and unsafe links, and shows images as their text', () => {
    const root = renderMarkdown(
      '<b onclick="x()">bold</b> <script>alert(1)</script>\n\n[click](javascript:alert(1)) ![pixel](https://t.example/p.gif)\n\n| a |\n| - |\n| <img src=x onerror=alert(1)> |',
    );
    expect(root.querySelector('script, b, img, [onclick], [onerror]')).toBeNull();
    const link = root.querySelector('a');
    expect(link?.getAttribute('href') ?? '').not.toMatch(/javascript/i);
    expect(root.textContent).toContain('pixel');
  });

  it('makes written-out addresses links that open in a new tab', () => {
    const root = renderMarkdown('See https://example.com/docs for more.');
    const link = root.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.com/docs');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
  });
});
