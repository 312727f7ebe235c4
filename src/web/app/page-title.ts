import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, useLocation } from 'react-router';
import type { PageTitleKey } from '#shared/i18n/pages';

/**
 * Every screen's title, by path. One table beside the shell rather than a call in each page, so a screen
 * cannot be added without its title being decided here (page-title.test.ts checks the router against it), and
 * the admin area's own nested routes are covered the same way.
 */
export const PAGE_TITLES: ReadonlyArray<readonly [pattern: string, key: PageTitleKey]> = [
  ['/', 'home'],
  ['/signin', 'signIn'],
  ['/signup', 'signUp'],
  ['/forgot-password', 'forgotPassword'],
  ['/reset-password', 'resetPassword'],
  ['/verify-email', 'verifyEmail'],
  ['/workflows', 'catalogue'],
  ['/workflows/:id/execute', 'execute'],
  ['/my-workflows', 'myWorkflows'],
  ['/my-workflows/:executionId', 'run'],
  ['/saved-answers', 'savedAnswers'],
  ['/schedules', 'schedules'],
  ['/account', 'account'],
  ['/buy-credits', 'buyCredits'],
  ['/credits', 'buyCredits'],
  ['/connect/:uid', 'connect'],
  ['/admin', 'adminDashboard'],
  ['/admin/workflows', 'adminWorkflows'],
  ['/admin/workflows/:id', 'adminEditWorkflow'],
  ['/admin/workflows/:id/versions', 'adminWorkflowVersions'],
  ['/admin/workflows/:id/health', 'adminWorkflowHealth'],
  ['/admin/workflows/:id/test', 'adminTestRun'],
  ['/admin/create-workflow', 'adminCreateWorkflow'],
  ['/admin/executions', 'adminExecutions'],
  ['/admin/executions/:id', 'adminRunDetail'],
  ['/admin/users', 'adminUsers'],
  ['/admin/credits', 'adminCredits'],
  ['/admin/insights', 'adminInsights'],
  ['/admin/emails', 'adminEmails'],
  ['/admin/audit', 'adminAudit'],
  ['/admin/config', 'adminConfig'],
];

export function pageTitleKey(pathname: string): PageTitleKey {
  const found = PAGE_TITLES.find(([pattern]) => matchPath({ path: pattern, end: true }, pathname));
  return found ? found[1] : 'notFound';
}

/** Keeps document.title on the current screen's title in the UI language, also after a language switch. */
export function useDocumentTitle(): void {
  const { t } = useTranslation('pages');
  const { pathname } = useLocation();
  const title = t('pageTitle', { page: t(`titles.${pageTitleKey(pathname)}`), brand: t('brand') });
  useEffect(() => {
    document.title = title;
  }, [title]);
}
