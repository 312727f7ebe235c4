import { Badge } from '#web/components/ui/badge';

export function ToggleBadge({ on, onLabel, offLabel }: { on: boolean; onLabel: string; offLabel: string }) {
  return <Badge tone={on ? 'success' : 'neutral'}>{on ? onLabel : offLabel}</Badge>;
}
