import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { isAdminUser, useMe } from '../lib/session';

/** Spinner while the session loads; /signin with no user; / for a non-admin on an admin route. */
export function RouteGuard({ admin = false }: { admin?: boolean }) {
  const { t } = useTranslation();
  const { data: user, isPending } = useMe();
  const location = useLocation();
  if (isPending) return <Spinner label={t('loading')} className="min-h-[50vh]" />;
  if (!user) return <Navigate to="/signin" replace state={{ from: location.pathname }} />;
  if (admin && !isAdminUser(user)) return <Navigate to="/" replace />;
  return <Outlet />;
}
