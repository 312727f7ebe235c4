import { linkify } from '../lib/linkify';

/**
 * Plain text with its http(s) addresses as links (built as elements, never as HTML), opening in a new tab
 * without handing this page to the one opened.
 */
export function LinkedText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className}>
      {linkify(text).map((segment, i) =>
        segment.kind === 'link' ? (
          <a
            key={i}
            href={segment.href}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
          >
            {segment.text}
          </a>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </div>
  );
}
