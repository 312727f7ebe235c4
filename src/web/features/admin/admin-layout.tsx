import { useTranslation } from 'react-i18next';
import { Link, Route, Routes } from 'react-router';
import { AdminNav } from './admin-nav';
import { DemoPaymentsBanner } from './components/demo-payments-banner';
import AuditPage from './pages/audit/audit-page';
import ConfigPage from './pages/config/config-page';
import CreateWorkflowPage from './pages/create-workflow/create-workflow-page';
import CreditsPage from './pages/credits/credits-page';
import DashboardPage from './pages/dashboard/dashboard-page';
import EmailsPage from './pages/emails/emails-page';
import ExecutionsPage from './pages/executions/executions-page';
import RunDetailPage from './pages/executions/run-detail-page';
import InsightsPage from './pages/insights/insights-page';
import UsersPage from './pages/users/users-page';
import EditWorkflowPage from './pages/workflows/edit-workflow-page';
import WorkflowHealthPage from './pages/workflows/workflow-health-page';
import WorkflowVersionsPage from './pages/workflows/workflow-versions-page';
import WorkflowsPage from './pages/workflows/workflows-page';

function AdminNotFound() {
  const { t } = useTranslation('admin');
  return (
    <div className="py-16 text-center">
      <h1 className="text-xl font-semibold text-slate-900">{t('notFound.title')}</h1>
      <Link to="/admin" className="mt-4 inline-block font-medium text-brand-700 underline underline-offset-4">
        {t('notFound.back')}
      </Link>
    </div>
  );
}

/**
 * The admin area, mounted at /admin/* by the app router (behind the admin guard) and loaded lazily, so
 * ordinary users never download it. It owns its nested routes.
 */
export default function AdminLayout() {
  return (
    <div className="flex min-h-[calc(100vh-4rem)] flex-col lg:flex-row">
      <AdminNav />
      <div className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        <div className="mx-auto max-w-7xl">
          <DemoPaymentsBanner />
          <Routes>
            <Route index element={<DashboardPage />} />
            <Route path="workflows" element={<WorkflowsPage />} />
            <Route path="workflows/:id" element={<EditWorkflowPage />} />
            <Route path="workflows/:id/versions" element={<WorkflowVersionsPage />} />
            <Route path="create-workflow" element={<CreateWorkflowPage />} />
            <Route path="workflows/:id/health" element={<WorkflowHealthPage />} />
            <Route path="executions" element={<ExecutionsPage />} />
            <Route path="executions/:id" element={<RunDetailPage />} />
            <Route path="users" element={<UsersPage />} />
            <Route path="credits" element={<CreditsPage />} />
            <Route path="insights" element={<InsightsPage />} />
            <Route path="emails" element={<EmailsPage />} />
            <Route path="audit" element={<AuditPage />} />
            <Route path="config" element={<ConfigPage />} />
            <Route path="*" element={<AdminNotFound />} />
          </Routes>
        </div>
      </div>
    </div>
  );
}
