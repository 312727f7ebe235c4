import { QueryClientProvider } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './i18n';
import './styles.css';
import { router } from './app/router';
import { createQueryClient } from './lib/query-client';

const queryClient = createQueryClient();
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// The first render as a transition: React then works in slices of a few milliseconds and lets the browser
// in between, instead of one long task that holds every tap and scroll of a slow phone until the screen is done.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
});
