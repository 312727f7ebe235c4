import { lazy, Suspense } from 'react';
import { cn } from '#web/lib/utils';

// The Markdown renderer is a third of a run screen's script (about 40 kB compressed): it loads with the
// first text that needs it, and the text shows as it is until then.
const MarkdownRender = lazy(() => import('./markdown-render'));

/** Text a workflow (or its assistant) sent, shown as safe Markdown (markdown-render.tsx). */
export function MarkdownText({ children, className }: { children: string; className?: string }) {
  return (
    <Suspense
      fallback={
        <div className={cn('whitespace-pre-wrap break-words text-sm leading-6 text-slate-800', className)}>
          {children}
        </div>
      }
    >
      <MarkdownRender className={className}>{children}</MarkdownRender>
    </Suspense>
  );
}
