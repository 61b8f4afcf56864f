import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.tsx';
import { isApiError, isSignedOutError } from './api/index.ts';
import './global.css';
import './i18n/index.ts';
import { errorText, showError } from './state/feedback.ts';
import { THEME } from './theme.ts';

const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (query.meta?.silent) return;
      // Signed out (9, 10, 70, 5003): AuthWatcher goes to the login page; no toast.
      if (isSignedOutError(error)) return;
      showError(errorText(error));
    },
  }),
  defaultOptions: {
    queries: {
      retry: (count, error) => !(isApiError(error) && error.kind === 'server') && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConfigProvider locale={enUS} theme={THEME}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </ConfigProvider>
  </StrictMode>,
);
