import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, type TAdminAuditEntry } from '#shared/contract/admin';
import { Badge } from '#web/components/ui/badge';
import { useAdminAudit } from '#web/features/admin/api/lists';
import type { Column } from '#web/components/ui/data-table';
import { AdminList, dateColumn, type ListFilter } from '#web/features/admin/components/admin-list';
import { jsonPreview } from '#web/features/admin/lib/json-text';
import { chosen, useListState } from '#web/features/admin/lib/use-list-state';

export default function AuditPage() {
  const { t, i18n } = useTranslation('admin');
  const list = useListState();
  const audit = useAdminAudit({ ...list.params, action: chosen(AUDIT_ACTIONS, list.filter) });
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const actionLabel = (action: string) =>
    i18n.exists(`actions.${action}`, { ns: 'admin' }) ? t(`actions.${action}`) : action;

  const columns: Array<Column<TAdminAuditEntry>> = [
    { id: 'admin', header: t('audit.columns.admin'), cell: (a) => a.admin?.email ?? '—' },
    {
      id: 'action',
      header: t('audit.columns.action'),
      cell: (a) => (
        <span className="flex flex-col items-start gap-0.5">
          <Badge tone="brand">{actionLabel(a.actionType)}</Badge>
          <code className="text-xs text-slate-700">{a.actionType}</code>
        </span>
      ),
    },
    {
      id: 'target',
      header: t('audit.columns.target'),
      cell: (a) =>
        i18n.exists(`targets.${a.targetType}`, { ns: 'admin' }) ? t(`targets.${a.targetType}`) : a.targetType,
    },
    {
      id: 'details',
      header: t('audit.columns.details'),
      cell: (a) => {
        const expanded = open.has(a.id);
        return (
          <button
            type="button"
            onClick={() => toggle(a.id)}
            aria-expanded={expanded}
            aria-controls={`audit-details-${a.id}`}
            className="flex max-w-[22rem] items-start gap-1 rounded text-left font-mono text-xs text-slate-800 hover:text-brand-700"
          >
            {expanded ? (
              <ChevronDown className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            ) : (
              <ChevronRight className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            )}
            {/* The details are data as recorded (an admin's own reason, in whatever language it was typed): not
                for translation, by a browser or by the language checks. */}
            <span className="break-all" translate="no">
              {jsonPreview(a.details)}
            </span>
            <span className="sr-only">{expanded ? t('audit.hideDetails') : t('audit.showDetails')}</span>
          </button>
        );
      },
    },
    dateColumn(t('audit.columns.date')),
  ];

  const filter: ListFilter = {
    label: t('audit.action'),
    options: AUDIT_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) })),
  };

  return (
    <AdminList
      section="audit"
      list={list}
      page={audit}
      filter={filter}
      columns={columns}
      renderAfterRow={(a) =>
        open.has(a.id) ? (
          <div id={`audit-details-${a.id}`}>
            <p className="mb-1 text-xs font-semibold text-slate-700">
              {t('audit.fullDetails')}
              {a.targetId ? ` · ${t('audit.targetId')}: ${a.targetId}` : ''}
            </p>
            <pre
              className="max-h-72 overflow-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-50"
              tabIndex={0}
              translate="no"
            >
              {JSON.stringify(a.details, null, 2)}
            </pre>
          </div>
        ) : null
      }
    />
  );
}
