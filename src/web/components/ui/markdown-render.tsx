import Markdown, { type Components } from 'react-markdown';
import { useTranslation } from 'react-i18next';
import { cn } from '#web/lib/utils';

/**
 * Text a workflow sent, shown as Markdown (loaded when first needed: markdown.tsx). Workflows are outside services, so nothing they send may become
 * markup of its own: raw HTML is dropped (`skipHtml`), react-markdown's default URL filter removes
 * `javascript:` and similar links, and images become their alt text so a result cannot load third-party
 * content (a tracking pixel) into the page. Headings start at h3: the page around it owns h1 and h2.
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
    ul: ({ children: c }) => <ul className="mt-3 list-disc space-y-1 pl-6 first:mt-0">{c}</ul>,
    ol: ({ children: c }) => <ol className="mt-3 list-decimal space-y-1 pl-6 first:mt-0">{c}</ol>,
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
      <Markdown skipHtml components={components}>
        {children}
      </Markdown>
    </div>
  );
}
