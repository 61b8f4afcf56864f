import {
  Codes,
  isRouteAllowed,
  landingPath,
  ROUTES,
  type RouteEntry,
  type SessionView,
} from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { App as AntApp, Button, Result } from 'antd';
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { api, isApiError, onFailure, onUnauthorized } from './api/index.ts';
import { LastError } from './layout/LastError.tsx';
import { LoadingOverlay } from './layout/LoadingOverlay.tsx';
import { PageTitle } from './layout/PageTitle.tsx';
import { FullPageSpin } from './layout/Spinners.tsx';
import { currentProject, selectProject, useCurrentProject } from './session/currentProject.ts';
import { mayBeLost } from './session/projectLoss.ts';
import { loginPathFor, nextFromSearch } from './session/returnTo.ts';
import { gateContext, SESSION_KEY, useSession } from './session/session.ts';
import { forgetSession, sessionGate } from './session/signedOut.ts';
import { errorText, setMessageApi } from './state/feedback.ts';

const PUBLIC_PREFIXES = ['/login', '/signup', '/reset-password', '/set-password', '/static/', '/help'];
export const isPublicPath = (path: string) => PUBLIC_PREFIXES.some((p) => path === p || path.startsWith(p));

/**
 * Screens load on first visit (one chunk each), so the login page and the shell start small; the
 * shell itself (menu, header, drawer) is a chunk of its own that the sign-in screens never load.
 */
// biome-ignore lint/suspicious/noExplicitAny: each screen's own props type flows through lazy()
const named = <K extends string, C extends ComponentType<any>>(load: () => Promise<Record<K, C>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));
const MainLayout = named(() => import('./layout/MainLayout.tsx'), 'MainLayout');
const PlaceholderPage = named(() => import('./features/static/PlaceholderPage.tsx'), 'PlaceholderPage');
const InfoPage = lazy(() =>
  import('./features/static/StaticPages.tsx').then((m) => ({ default: m.InfoPage })),
);
const TransferPage = named(() => import('./features/static/StaticPages.tsx'), 'TransferPage');
const SocialCallbackPage = named(
  () => import('./features/identity/SocialCallbackPage.tsx'),
  'SocialCallbackPage',
);
const AccountPage = named(() => import('./features/account/AccountPage.tsx'), 'AccountPage');
const SolutionsPage = named(() => import('./features/solutions/SolutionsPage.tsx'), 'SolutionsPage');
const SolutionPage = named(() => import('./features/solutions/SolutionPage.tsx'), 'SolutionPage');
const SolutionEditorPage = named(
  () => import('./features/solutions/SolutionEditor.tsx'),
  'SolutionEditorPage',
);
const PivotPage = named(() => import('./features/solutions/PivotPage.tsx'), 'PivotPage');
const ModelsPage = named(() => import('./features/solutions/ModelsPage.tsx'), 'ModelsPage');
const TeamPage = named(() => import('./features/team/TeamPage.tsx'), 'TeamPage');
const HelpPage = named(() => import('./features/help/HelpPage.tsx'), 'HelpPage');
const LoginPage = named(() => import('./features/auth/LoginPage.tsx'), 'LoginPage');
const ResetPasswordPage = named(() => import('./features/auth/ResetPasswordPage.tsx'), 'ResetPasswordPage');
const SetPasswordPage = named(() => import('./features/auth/SetPasswordPage.tsx'), 'SetPasswordPage');
const SignUpPage = named(() => import('./features/auth/SignUpPage.tsx'), 'SignUpPage');
const DevicesPage = named(() => import('./features/devices/DevicesPage.tsx'), 'DevicesPage');
const AlarmPage = named(() => import('./features/alarms/AlarmPage.tsx'), 'AlarmPage');
const LogPage = named(() => import('./features/logs/LogPage.tsx'), 'LogPage');
const ProjectListPage = named(() => import('./features/projects/ProjectListPage.tsx'), 'ProjectListPage');
const ProjectPreviewPage = named(
  () => import('./features/projects/ProjectPreviewPage.tsx'),
  'ProjectPreviewPage',
);
const DataScreenPage = named(() => import('./features/overview/DataScreenPage.tsx'), 'DataScreenPage');
const AcceptInvitePage = named(() => import('./features/sharing/AcceptInvitePage.tsx'), 'AcceptInvitePage');
const AuthorityPage = named(() => import('./features/sharing/AuthorityPage.tsx'), 'AuthorityPage');
const VlanPage = named(() => import('./features/network/VlanPage.tsx'), 'VlanPage');
const DhcpPage = named(() => import('./features/network/DhcpPage.tsx'), 'DhcpPage');
const NetsetPage = named(() => import('./features/network/NetsetPage.tsx'), 'NetsetPage');
const StaticRoutePage = named(() => import('./features/network/StaticRoutePage.tsx'), 'StaticRoutePage');
const PortMappingPage = named(() => import('./features/network/PortMappingPage.tsx'), 'PortMappingPage');
const RouteTablePage = named(() => import('./features/network/RouteTablePage.tsx'), 'RouteTablePage');
const StatusPage = named(() => import('./features/stats/StatusPage.tsx'), 'StatusPage');
const DeviceDataPage = named(() => import('./features/stats/DeviceDataPage.tsx'), 'DeviceDataPage');
const ClientListPage = named(() => import('./features/clients/ClientListPage.tsx'), 'ClientListPage');
const ClientDataPage = named(() => import('./features/clients/ClientDataPage.tsx'), 'ClientDataPage');
const WirelessPage = named(() => import('./features/wireless/WirelessPage.tsx'), 'WirelessPage');
const BackupPage = named(() => import('./features/backup/BackupPage.tsx'), 'BackupPage');
const WifiMapPage = named(() => import('./features/wifi-map/WifiMapPage.tsx'), 'WifiMapPage');
const RfPage = named(() => import('./features/rf/RfPage.tsx'), 'RfPage');
const TopologyPage = named(() => import('./features/topology/TopologyPage.tsx'), 'TopologyPage');

const REAL_PAGES: Record<string, () => ReactNode> = {
  '/overview/list': () => <ProjectListPage />,
  '/overview/preview': () => <ProjectPreviewPage />,
  '/overview/preview/datascreen': () => <DataScreenPage />,
  '/manage/authority': () => <AuthorityPage />,
  '/manage/devconf': () => <DevicesPage />,
  '/manage/networkconf/vlan': () => <VlanPage />,
  '/manage/networkconf/dhcp': () => <DhcpPage />,
  '/manage/networkconf/netset': () => <NetsetPage />,
  '/manage/networkconf/static': () => <StaticRoutePage />,
  '/manage/networkconf/port': () => <PortMappingPage />,
  '/manage/networkconf/router': () => <RouteTablePage />,
  '/manage/alarminfo': () => <AlarmPage />,
  '/manage/runlog': () => <LogPage />,
  '/manage/status': () => <StatusPage />,
  '/manage/devsrunstat': () => <DeviceDataPage />,
  '/manage/onlinelist': () => <ClientListPage />,
  '/manage/onlinestat': () => <ClientDataPage />,
  '/manage/wirelessconf': () => <WirelessPage />,
  '/manage/backup': () => <BackupPage />,
  '/manage/visualization/td': () => <WifiMapPage />,
  '/manage/rfconf': () => <RfPage />,
  '/manage/visualization/topo': () => <TopologyPage />,
};

/**
 * Sends the user to /login when any call answers that the browser is signed out: 401 with 9 or 10
 * (token missing or old), 70 (the password was modified: a reset or a change elsewhere ended every
 * session of the account) or 5003 (logged in elsewhere). Every cached answer goes, the session's too.
 * "Your session has ended" shows only when one did: this tab held a session, or the browser sent a
 * token that is no longer valid — not to a visitor who never signed in (9 on the first call).
 * The page they opened comes back after the login (`?next=`).
 */
function AuthWatcher() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onUnauthorized((error) => {
        const { pathname, search, hash, origin } = window.location;
        if (isPublicPath(pathname)) return;
        const ended =
          queryClient.getQueryData(SESSION_KEY) !== undefined || error.code !== Codes.TOKEN_MISSING;
        forgetSession(queryClient);
        navigate(loginPathFor(`${pathname}${search}${hash}`, origin), {
          replace: true,
          state: ended
            ? { reason: error.code === Codes.LOGIN_ELSEWHERE ? 'elsewhere' : 'expired' }
            : undefined,
        });
      }),
    [navigate, queryClient],
  );
  void location;
  return null;
}

/**
 * The current project answered 30, 73 or 74 (expired, removed, gone): once the project itself
 * confirms it, it is dropped as the current project, its cached data goes, and the user lands on
 * the project list. The failing call shows the catalogue message as usual.
 */
function ProjectLossWatcher() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    let checking: number | null = null;
    return onFailure((error, path) => {
      const id = currentProject.get()?.id;
      if (id === undefined || checking === id || !mayBeLost(error.code, path, id)) return;
      checking = id;
      api
        .project(id)
        .then(
          (fresh) => selectProject(fresh),
          (e) => {
            if (!isApiError(e) || !mayBeLost(e.code, `/projects/${id}`, currentProject.get()?.id)) return;
            selectProject(null);
            queryClient.removeQueries({ predicate: (q) => q.queryKey[1] === id });
            queryClient.invalidateQueries({ queryKey: ['projects'] });
            if (!isPublicPath(window.location.pathname)) navigate('/overview/list', { replace: true });
          },
        )
        .finally(() => {
          checking = null;
        });
    });
  }, [navigate, queryClient]);
  return null;
}

/** Captures antd's themed message API for toasts raised outside components. */
function MessageBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    setMessageApi(message);
    return () => setMessageApi(null);
  }, [message]);
  return null;
}

function RequireSession() {
  const { t } = useTranslation();
  const location = useLocation();
  const session = useSession();
  // A signed-out answer wins over the session React Query keeps from before a failed refetch.
  const gate = sessionGate(session);
  if (gate === 'login') {
    const here = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={loginPathFor(here, window.location.origin)} replace />;
  }
  if (gate === 'shell' && session.data) return <MainLayout session={session.data} />;
  if (gate === 'wait') return <FullPageSpin />;
  return (
    <Result
      status="error"
      title={errorText(session.error)}
      extra={
        <Button type="primary" onClick={() => session.refetch()}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}

/** Public auth screens: a signed-in user goes straight on: to `?next=`, else the landing page. */
function PublicOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  const project = useCurrentProject();
  const location = useLocation();
  if (sessionGate(session) === 'shell' && session.data) {
    const next = nextFromSearch(location.search, window.location.origin);
    const landing = next ?? landingPath(gateContext(session.data, project?.netMode)) ?? '/';
    return <Navigate to={landing} replace />;
  }
  return <>{children}</>;
}

function NoAccess() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('gate.noAccessTitle')} />
      <Result status="403" subTitle={t('gate.noAccess')} />
    </>
  );
}

function useGate() {
  const session = useSession();
  const project = useCurrentProject();
  return session.data ? gateContext(session.data as SessionView, project?.netMode) : null;
}

/** A route the user may not see redirects to the landing page. */
function Gate({ route, children }: { route: RouteEntry; children: ReactNode }) {
  const ctx = useGate();
  if (!ctx) return null;
  if (isRouteAllowed(route, ctx)) return <>{children}</>;
  const landing = landingPath(ctx);
  const landingRoute = ROUTES.find((r) => r.path === landing);
  if (landing && landing !== route.path && landingRoute && isRouteAllowed(landingRoute, ctx)) {
    return <Navigate to={landing} replace />;
  }
  return <NoAccess />;
}

function LandingRedirect() {
  const ctx = useGate();
  if (!ctx) return null;
  const landing = landingPath(ctx);
  return landing ? <Navigate to={landing} replace /> : <NoAccess />;
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={<span data-testid="page-title">{t('notFound.title')}</span>}
      subTitle={t('notFound.text')}
      extra={
        <Link to="/">
          <Button type="primary">{t('notFound.home')}</Button>
        </Link>
      }
    />
  );
}

export function App() {
  return (
    <AntApp>
      <MessageBridge />
      <AuthWatcher />
      <ProjectLossWatcher />
      <LoadingOverlay />
      <LastError />
      <Suspense fallback={<FullPageSpin />}>
        <Routes>
          <Route
            path="/login"
            element={
              <PublicOnly>
                <LoginPage />
              </PublicOnly>
            }
          />
          <Route
            path="/signup"
            element={
              <PublicOnly>
                <SignUpPage />
              </PublicOnly>
            }
          />
          <Route
            path="/reset-password"
            element={
              <PublicOnly>
                <ResetPasswordPage />
              </PublicOnly>
            }
          />
          {/* The invitation link of a subordinate account (decision 0068): also opened while signed in. */}
          <Route path="/set-password" element={<SetPasswordPage />} />
          <Route
            path="/static/lrf"
            element={
              <PublicOnly>
                <LoginPage />
              </PublicOnly>
            }
          />
          <Route path="/static/transfer" element={<TransferPage />} />
          <Route path="/help" element={<HelpPage />} />
          <Route path="/help/:topic" element={<HelpPage />} />
          <Route
            path="/static/transferToLocalDev"
            element={
              <InfoPage titleKey="static.transferToLocalDevTitle" textKey="static.transferToLocalDevText" />
            }
          />
          {/* The providers send the browser back here (socialLandingPath): the messaging app's own route. */}
          <Route path="/static/wechatTransfer" element={<SocialCallbackPage />} />
          <Route path="/static/socialTransfer/:provider" element={<SocialCallbackPage />} />
          <Route element={<RequireSession />}>
            <Route index element={<LandingRedirect />} />
            <Route path="/account" element={<AccountPage />} />
            <Route path="/solutions" element={<SolutionsPage />} />
            <Route path="/solutions/new" element={<SolutionEditorPage />} />
            <Route path="/solutions/:id" element={<SolutionPage />} />
            <Route path="/solutions/:id/edit" element={<SolutionEditorPage />} />
            <Route path="/reports/devices" element={<PivotPage />} />
            <Route path="/models" element={<ModelsPage />} />
            <Route path="/account/management" element={<TeamPage />} />
            <Route path="/invite/:code" element={<AcceptInvitePage />} />
            {ROUTES.map((r) => (
              <Route
                key={r.path}
                path={r.path}
                element={<Gate route={r}>{REAL_PAGES[r.path]?.() ?? <PlaceholderPage route={r} />}</Gate>}
              />
            ))}
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </Suspense>
    </AntApp>
  );
}
