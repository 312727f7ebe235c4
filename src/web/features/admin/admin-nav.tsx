import {
  Activity,
  ChartColumn,
  Coins,
  LayoutDashboard,
  Mail,
  Menu,
  PanelLeftClose,
  PanelLeftOpen,
  ScrollText,
  Settings,
  Users,
  Workflow,
  X,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { cn } from '#web/lib/utils';

interface NavItem {
  to: string;
  labelKey: string;
  icon: LucideIcon;
  end?: boolean;
}

const ITEMS: NavItem[] = [
  { to: '/admin', labelKey: 'nav.dashboard', icon: LayoutDashboard, end: true },
  { to: '/admin/workflows', labelKey: 'nav.workflows', icon: Workflow },
  { to: '/admin/executions', labelKey: 'nav.executions', icon: Activity },
  { to: '/admin/users', labelKey: 'nav.users', icon: Users },
  { to: '/admin/credits', labelKey: 'nav.credits', icon: Coins },
  { to: '/admin/insights', labelKey: 'nav.insights', icon: ChartColumn },
  { to: '/admin/emails', labelKey: 'nav.emails', icon: Mail },
  { to: '/admin/audit', labelKey: 'nav.audit', icon: ScrollText },
  { to: '/admin/config', labelKey: 'nav.config', icon: Settings },
];

const COLLAPSED_KEY = 'flujo.adminNavCollapsed';

function NavItems({ collapsed, onSelect }: { collapsed: boolean; onSelect?: () => void }) {
  const { t } = useTranslation('admin');
  return (
    <ul className="flex flex-col gap-1">
      {ITEMS.map(({ to, labelKey, icon: Icon, end }) => (
        <li key={to}>
          <NavLink
            to={to}
            end={end}
            onClick={onSelect}
            title={collapsed ? t(labelKey) : undefined}
            className={({ isActive }) =>
              cn(
                'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                collapsed && 'justify-center px-2',
                isActive
                  ? 'bg-brand-600 text-white shadow-sm'
                  : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
              )
            }
          >
            <Icon className="size-5 shrink-0" aria-hidden="true" />
            <span className={collapsed ? 'sr-only' : undefined}>{t(labelKey)}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** The admin side menu: collapsible to icons on wide screens, a toggled list on phones. */
export function AdminNav() {
  const { t } = useTranslation('admin');
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === '1');
  const [mobileOpen, setMobileOpen] = useState(false);

  const toggleCollapsed = () => {
    setCollapsed((c) => {
      localStorage.setItem(COLLAPSED_KEY, c ? '0' : '1');
      return !c;
    });
  };

  return (
    <>
      {/* Phones and small tablets: a bar with a toggle that opens the menu above the content. */}
      <div className="border-b border-slate-200 bg-white px-4 py-2 lg:hidden">
        <button
          type="button"
          className="flex w-full items-center justify-between rounded-lg px-2 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-100"
          aria-expanded={mobileOpen}
          aria-controls="admin-mobile-nav"
          onClick={() => setMobileOpen((o) => !o)}
        >
          <span>{t('nav.title')}</span>
          {mobileOpen ? (
            <X className="size-5" aria-hidden="true" />
          ) : (
            <Menu className="size-5" aria-hidden="true" />
          )}
        </button>
        {mobileOpen ? (
          <nav id="admin-mobile-nav" aria-label={t('nav.title')} className="pb-2 pt-1">
            <NavItems collapsed={false} onSelect={() => setMobileOpen(false)} />
          </nav>
        ) : null}
      </div>

      {/* Wide screens: a side menu that folds down to its icons. */}
      <aside
        className={cn(
          'hidden shrink-0 border-r border-slate-200 bg-white lg:block',
          collapsed ? 'w-[4.5rem]' : 'w-60',
        )}
      >
        <div className="sticky top-16 flex flex-col gap-4 p-3">
          <div className={cn('flex items-center', collapsed ? 'justify-center' : 'justify-between pl-3')}>
            {collapsed ? null : (
              <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">{t('nav.title')}</p>
            )}
            <button
              type="button"
              onClick={toggleCollapsed}
              aria-expanded={!collapsed}
              aria-label={collapsed ? t('nav.expand') : t('nav.collapse')}
              title={collapsed ? t('nav.expand') : t('nav.collapse')}
              className="rounded-md p-2 text-slate-700 hover:bg-slate-100"
            >
              {collapsed ? (
                <PanelLeftOpen className="size-5" aria-hidden="true" />
              ) : (
                <PanelLeftClose className="size-5" aria-hidden="true" />
              )}
            </button>
          </div>
          <nav aria-label={t('nav.title')}>
            <NavItems collapsed={collapsed} />
          </nav>
        </div>
      </aside>
    </>
  );
}
