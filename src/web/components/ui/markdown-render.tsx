import type { Nodes, Parent, PhrasingContent } from 'mdast';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { useTranslation } from 'react-i18next';
import { cn } from '#web/lib/utils';

/**
 * Keeps a text's plain line breaks: Markdown would join two lines into one paragraph, but workflows send
 * addresses, lists without markers and short lines that read as the author wrote them. Each newline inside
 * running text becomes a hard break; code keeps its own text untouched (its value is not a text node).
 */
function remarkKeepLineBreaks() {
  const visit = (node: Nodes) => {
    if (!('children' in node)) return;
    const parent = node as Parent;
    parent.children = parent.children.flatMap((child) => {
      if (child.type !== 'text' || !child.value.includes('\n')) {
        visit(child);
        return [child];
      }
      const parts: PhrasingContent[] = [];
      child.value.split(/\r?\n/).forEach((line, i) => {
        if (i > 0) parts.push({ type: 'break' });
        if (line) parts.push({ type: 'text', value: line });
      });
      return parts;
    });
  };
  return (tree: Nodes) => visit(tree);
}

const REMARK_PLUGINS = [remarkGfm, remarkKeepLineBreaks];

/**
 * Text a workflow sent, shown as GitHub-flavoured Markdown (tables, strikethrough, task lists, links written
 * out), loaded when first needed: markdown.tsx. Workflows are outside services, so nothing they send may
 * become markup of its own: raw HTML is dropped (`skipHtml`), react-markdown's default URL filter removes
 * `javascript:` and similar links, and images become their alt text so a result cannot load third-party
 * content (a tracking pixel) into the page. Headings start at h3: the page around it owns h1 and h2. A wide
 * table scrolls sideways inside its own box so the page never does, at phone width too.
 */
export default function MarkdownRender({ children, className }: { children: string; className?: string }) {
  const { t } = useTranslation('common');
  const components: Components = {
    h1: ({ children: c }) => <h3 className="mt-4 text-lg font-bold text-slate-900 first:mt-0">{c}</h3>,
    h2: ({ children: c }) => <h3 className="mt-4 text-base font-bold text-slate-900 first:mt-0">{c}</h3>,
    h3: ({ children: c }) => <h4 className="mt-3 font-semibold text-slate-900 first:mt-0">{c}</h4>,
    h4: ({ children: c }) => <h4 className="mt-3 font-semibold text-slate-900 first:mt-0">{c}</h4>,
    h5: ({ children: c }) => <h4 className="mt-3 font-semibold text-slate-900 first:mt-0">{c}</h4>,
    h6: ({ children: c }) => <h4 className="mt-3 font-semibold text-slate-900 first:mt-0">{c}</h4>,
    p: ({ children: c }) => <p className="mt-3 first:mt-0">{c}</p>,
    // A task list (`- [x] done`) has its own check boxes: no bullet beside them.
    ul: ({ children: c, className: kind }) => (
      <ul
        className={cn(
          'mt-3 space-y-1 first:mt-0',
          kind === 'contains-task-list' ? 'list-none pl-1' : 'list-disc pl-6',
        )}
      >
        {c}
      </ul>
    ),
    ol: ({ children: c }) => <ol className="mt-3 list-decimal space-y-1 pl-6 first:mt-0">{c}</ol>,
    input: ({ checked, type }) =>
      type === 'checkbox' ? (
        <input
          type="checkbox"
          checked={Boolean(checked)}
          disabled
          readOnly
          className="mr-2 size-4 translate-y-0.5 accent-brand-700"
        />
      ) : null,
    del: ({ children: c }) => <del className="text-slate-600">{c}</del>,
    table: ({ children: c }) => (
      <div className="mt-3 max-w-full overflow-x-auto rounded-md border border-slate-200 first:mt-0">
        <table className="min-w-full border-collapse text-left text-sm">{c}</table>
      </div>
    ),
    thead: ({ children: c }) => <thead className="bg-slate-100">{c}</thead>,
    th: ({ children: c, style }) => (
      <th
        scope="col"
        style={style}
        className="border-b border-slate-200 px-3 py-2 font-semibold text-slate-900"
      >
        {c}
      </th>
    ),
    td: ({ children: c, style }) => (
      <td style={style} className="border-t border-slate-200 px-3 py-2 align-top">
        {c}
      </td>
    ),
    blockquote: ({ children: c }) => (
      <blockquote className="mt-3 border-l-4 border-slate-300 pl-4 text-slate-700 first:mt-0">{c}</blockquote>
    ),
    pre: ({ children: c }) => (
      <pre className="mt-3 overflow-x-auto rounded-md bg-slate-100 p-3 text-xs first:mt-0">{c}</pre>
    ),
    code: ({ children: c }) => <code className="rounded bg-slate-100 px-1 font-mono text-[0.85em]">{c}</code>,
    hr: () => <hr className="my-4 border-slate-200" />,
    a: ({ children: c, href }) => (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
      >
        {c}
        <span className="sr-only"> {t('markdown.newTab')}</span>
      </a>
    ),
    img: ({ alt }) => (alt ? <span>{alt}</span> : null),
  };
  return (
    <div className={cn('break-words text-sm leading-6 text-slate-800', className)}>
      <Markdown skipHtml remarkPlugins={REMARK_PLUGINS} components={components}>
        {children}
      </Markdown>
    </div>
  );
}
