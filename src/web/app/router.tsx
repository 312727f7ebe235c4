import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import SignInPage from '../features/auth/sign-in-page';
import SignUpPage from '../features/auth/sign-up-page';
import HomePage from '../features/home/home-page';
import { Layout } from './layout';
import NotFoundPage from './not-found-page';
import { RouteErrorPage } from './route-error-page';
import { RouteGuard } from './route-guard';

/**
 * A screen loaded by the router with its route (decision 193): everything past the first screens is split out, so
 * the home page ships only what it shows. The router fetches a screen's code before it shows the screen (on the
 * first page, as soon as this module runs), so the screen mounts and asks for its data at once. A screen behind
 * React's `lazy` showed a placeholder first, and React holds content back for 300 ms after a placeholder appears,
 * so every first page and every first visit to a screen waited that long before its data was even asked for.
 */
function screen<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  props?: P,
): Pick<RouteObject, 'lazy'> {
  // The function form: a screen whose code cannot be fetched (a deploy removed the chunk the open page points at)
  // reaches the route's error screen. With the object form's `Component`, the router swallowed that failure and
  // showed an empty screen.
  return {
    lazy: async () => {
      const Screen = (await load()).default;
      return { Component: props ? () => <Screen {...props} /> : (Screen as ComponentType) };
    },
  };
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
            ...screen(() => import('../features/auth/forgot-password-page')),
          },
          {
            path: '/reset-password',
            ...screen(() => import('../features/auth/reset-password-page')),
          },
          {
            path: '/verify-email',
            ...screen(() => import('../features/auth/verify-email-page')),
          },
          // The catalogue is public but blurred for visitors; it reads the session itself.
          {
            path: '/workflows',
            ...screen(() => import('../features/catalogue/catalogue-page')),
          },
          {
            element: <RouteGuard />,
            children: [
              {
                path: '/workflows/:id/execute',
                ...screen(() => import('../features/execute/execute-page')),
              },
              {
                path: '/my-workflows',
                ...screen(() => import('../features/executions/my-executions-page')),
              },
              {
                path: '/my-workflows/:executionId',
                ...screen(() => import('../features/execute/run-page')),
              },
              {
                path: '/saved-answers',
                ...screen(() => import('../features/saved-inputs/saved-inputs-page')),
              },
              {
                path: '/schedules',
                ...screen(() => import('../features/schedules/schedules-page')),
              },
              {
                path: '/account',
                ...screen(() => import('../features/account/account-page')),
              },
              {
                path: '/buy-credits',
                ...screen(() => import('../features/billing/buy-credits-page')),
              },
              {
                path: '/credits',
                ...screen(() => import('../features/billing/buy-credits-page')),
              },
              // Where an app's OAuth request asks the person to approve it (signing in first, by the guard).
              {
                path: '/connect/:uid',
                ...screen(() => import('../features/connect/connect-page')),
              },
            ],
          },
          {
            element: <RouteGuard admin />,
            children: [
              {
                // An admin's test run (decision 147): the execute screen, charged to no one.
                path: '/admin/workflows/:id/test',
                ...screen(() => import('../features/execute/execute-page'), { test: true }),
              },
              {
                path: '/admin/*',
                ...screen(() => import('../features/admin/admin-layout')),
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
