import { Loader2 } from 'lucide-react';
import { cn } from '#web/lib/utils';

export function Spinner({ label, className }: { label: string; className?: string }) {
  return (
    <div role="status" className={cn('flex items-center justify-center gap-2 p-8 text-slate-700', className)}>
      <Loader2 className="size-5 animate-spin" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
