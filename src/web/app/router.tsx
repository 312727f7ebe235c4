import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import SignInPage from '../features/auth/sign-in-page';
import SignUpPage from '../features/auth/sign-up-page';
import HomePage from '../features/home/home-page';
import { Layout } from './layout';
import NotFoundPage from './not-found-page';
import { RouteErrorPage } from './route-error-page';
import { RouteGuard } from './route-guard';

// Everything past the first screens is split out, so the home page ships only what it shows.
const CataloguePage = lazy(() => import('../features/catalogue/catalogue-page'));
const ExecutePage = lazy(() => import('../features/execute/execute-page'));
const MyExecutionsPage = lazy(() => import('../features/executions/my-executions-page'));
const RunPage = lazy(() => import('../features/execute/run-page'));
const AccountPage = lazy(() => import('../features/account/account-page'));
const SavedInputsPage = lazy(() => import('../features/saved-inputs/saved-inputs-page'));
const SchedulesPage = lazy(() => import('../features/schedules/schedules-page'));
const BuyCreditsPage = lazy(() => import('../features/billing/buy-credits-page'));
const AdminRoutes = lazy(() => import('../features/admin/admin-layout'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
const VerifyEmailPage = lazy(() => import('../features/auth/verify-email-page'));
const ConnectPage = lazy(() => import('../features/connect/connect-page'));

function Lazy({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return <Suspense fallback={<Spinner label={t('loading')} className="min-h-[50vh]" />}>{children}</Suspense>;
}

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    // Reached only when the shell itself fails; the screens' errors are caught below it.
    errorElement: <RouteErrorPage />,
    children: [
      {
        // A screen's error replaces the screen alone, so the header and its way around stay.
        errorElement: <RouteErrorPage />,
        children: [
          { path: '/', element: <HomePage /> },
          { path: '/signin', element: <SignInPage /> },
          { path: '/signup', element: <SignUpPage /> },
          // Reached from mailed links, signed in or not.
          {
            path: '/forgot-password',
            element: (
              <Lazy>
                <ForgotPasswordPage />
              </Lazy>
            ),
          },
          {
            path: '/reset-password',
            element: (
              <Lazy>
                <ResetPasswordPage />
              </Lazy>
            ),
          },
          {
            path: '/verify-email',
            element: (
              <Lazy>
                <VerifyEmailPage />
              </Lazy>
            ),
          },
          // The catalogue is public but blurred for visitors; it reads the session itself.
          {
            path: '/workflows',
            element: (
              <Lazy>
                <CataloguePage />
              </Lazy>
            ),
          },
          {
            element: <RouteGuard />,
            children: [
              {
                path: '/workflows/:id/execute',
                element: (
                  <Lazy>
                    <ExecutePage />
                  </Lazy>
                ),
              },
              {
                path: '/my-workflows',
                element: (
                  <Lazy>
                    <MyExecutionsPage />
                  </Lazy>
                ),
              },
              {
                path: '/my-workflows/:executionId',
                element: (
                  <Lazy>
                    <RunPage />
                  </Lazy>
                ),
              },
              {
                path: '/saved-answers',
                element: (
                  <Lazy>
                    <SavedInputsPage />
                  </Lazy>
                ),
              },
              {
                path: '/schedules',
                element: (
                  <Lazy>
                    <SchedulesPage />
                  </Lazy>
                ),
              },
              {
                path: '/account',
                element: (
                  <Lazy>
                    <AccountPage />
                  </Lazy>
                ),
              },
              {
                path: '/buy-credits',
                element: (
                  <Lazy>
                    <BuyCreditsPage />
                  </Lazy>
                ),
              },
              {
                path: '/credits',
                element: (
                  <Lazy>
                    <BuyCreditsPage />
                  </Lazy>
                ),
              },
              // Where an app's OAuth request asks the person to approve it (signing in first, by the guard).
              {
                path: '/connect/:uid',
                element: (
                  <Lazy>
                    <ConnectPage />
                  </Lazy>
                ),
              },
            ],
          },
          {
            element: <RouteGuard admin />,
            children: [
              {
                // An admin's test run (decision 147): the execute screen, charged to no one.
                path: '/admin/workflows/:id/test',
                element: (
                  <Lazy>
                    <ExecutePage test />
                  </Lazy>
                ),
              },
              {
                path: '/admin/*',
                element: (
                  <Lazy>
                    <AdminRoutes />
                  </Lazy>
                ),
              },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
