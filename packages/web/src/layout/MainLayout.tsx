import {
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  DashboardOutlined,
  FundProjectionScreenOutlined,
  GlobalOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  ToolOutlined,
  UnorderedListOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { SessionView } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Layout, Menu, type MenuProps, Tag, theme } from 'antd';
import { type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '../api/index.ts';
import { AlarmBadge } from '../features/alarms/AlarmBadge.tsx';
import { JoinedDevicesAlert } from '../features/team/JoinedDevicesAlert.tsx';
import { allGroupKeys, buildNavTree, type NavNode, openKeysFor } from '../nav/navTree.ts';
import { selectProject, useCurrentProject } from '../session/currentProject.ts';
import { loginPathFor } from '../session/returnTo.ts';
import { gateContext, logout } from '../session/session.ts';
import { useIdleLogout } from '../session/useIdleLogout.ts';
import { showSuccess } from '../state/feedback.ts';
import { AccountMenu } from './AccountMenu.tsx';
import { ProjectSwitcher, SWITCHER_QUERY } from './ProjectSwitcher.tsx';
import { ContentSpin } from './Spinners.tsx';
import { useIsPhone } from './useIsPhone.ts';

const ICONS: Record<string, ReactNode> = {
  '/overview/preview': <DashboardOutlined />,
  '/overview/list': <UnorderedListOutlined />,
  '/overview/preview/datascreen': <FundProjectionScreenOutlined />,
  'group:network': <GlobalOutlined />,
  'group:configuration': <SettingOutlined />,
  'group:configuration:gateway': <ApartmentOutlined />,
  'group:data': <BarChartOutlined />,
  'group:tool': <ToolOutlined />,
};

type MenuItem = Required<MenuProps>['items'][number];

function toMenuItems(nodes: NavNode[], t: (k: string) => string): MenuItem[] {
  return nodes.map((n) =>
    n.kind === 'item'
      ? { key: n.key, icon: ICONS[n.key], label: <span data-testid={n.testId}>{t(n.titleKey)}</span> }
      : {
          key: n.key,
          icon: ICONS[n.key] ?? <AppstoreOutlined />,
          label: <span data-testid={n.testId}>{t(n.titleKey)}</span>,
          children: toMenuItems(n.children, t),
        },
  );
}

/**
 * Picks a project when none is current — the account's own work before the demos, and the WLAN demo
 * (the one with a full fleet) before the MESH one — and keeps the stored snapshot fresh.
 */
function useProjectSelection() {
  const current = useCurrentProject();
  const list = useQuery({ queryKey: ['projects', 'switcher'], queryFn: () => api.projects(SWITCHER_QUERY) });
  useEffect(() => {
    const items = list.data?.items;
    if (!items) return;
    const fresh = current ? items.find((p) => p.id === current.id) : undefined;
    if (fresh) selectProject(fresh);
    else if (!current && items.length > 0) {
      const demosLast = [...items].sort(
        (a, b) => Number(a.isDemo) - Number(b.isDemo) || (a.isDemo ? a.id - b.id : 0),
      );
      selectProject(demosLast[0]!);
    }
  }, [list.data, current]);
}

export function MainLayout({ session }: { session: SessionView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const project = useCurrentProject();
  const phone = useIsPhone();
  // Tablets (under antd's lg, 992 px) start with the sider folded to its icons; it can be unfolded.
  const [collapsed, setCollapsed] = useState(() => window.innerWidth < 992);
  const [navOpen, setNavOpen] = useState(false);
  const { token } = theme.useToken();
  useProjectSelection();

  const tree = useMemo(
    () => buildNavTree(gateContext(session, project?.netMode)),
    [session, project?.netMode],
  );
  const items = useMemo(() => toMenuItems(tree, t), [tree, t]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => allGroupKeys(tree));
  useEffect(() => {
    const need = openKeysFor(tree, location.pathname);
    setOpenKeys((keys) => (need.every((k) => keys.includes(k)) ? keys : [...new Set([...keys, ...need])]));
  }, [tree, location.pathname]);

  // Content scrolls in its own box: a new screen starts at its top.
  const contentRef = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new path on purpose
  useEffect(() => {
    contentRef.current?.scrollTo?.({ top: 0 });
  }, [location.pathname]);

  const doLogout = useCallback(async () => {
    await logout(queryClient);
    showSuccess(t('header.loggedOut'));
    navigate('/login', { replace: true });
  }, [queryClient, navigate, t]);

  const onIdle = useCallback(async () => {
    await logout(queryClient);
    const { pathname, search, hash, origin } = window.location;
    navigate(loginPathFor(`${pathname}${search}${hash}`, origin), {
      replace: true,
      state: { reason: 'idle' },
    });
  }, [queryClient, navigate]);
  useIdleLogout(session.idleTimeoutSeconds, onIdle);

  const closeNavDrawer = () => setNavOpen(false);
  const brand = (showName: boolean) => (
    <div
      style={{
        height: 56,
        flex: 'none',
        display: 'flex',
        alignItems: 'center',
        gap: 10,
        padding: showName ? '0 20px' : '0 24px',
        color: '#fff',
        fontWeight: 600,
        fontSize: 18,
        letterSpacing: 0.3,
        whiteSpace: 'nowrap',
      }}
      data-testid="app-name"
    >
      <WifiOutlined style={{ fontSize: 20, color: '#69b1ff' }} />
      {showName ? t('app.name') : null}
    </div>
  );
  const nav = (inDrawer: boolean) => (
    <nav
      style={{ flex: 1, minHeight: 0, overflowY: 'auto', overflowX: 'hidden' }}
      aria-label={t('nav.label')}
    >
      <Menu
        theme="dark"
        mode="inline"
        data-testid="nav-menu"
        items={items}
        selectedKeys={[location.pathname]}
        openKeys={collapsed && !inDrawer ? undefined : openKeys}
        onOpenChange={(keys) => setOpenKeys(keys as string[])}
        onClick={({ key }) => {
          navigate(key);
          if (inDrawer) closeNavDrawer();
        }}
      />
    </nav>
  );

  // The console fills the window: the sider and the header stay put, each part scrolls on its own.
  // On a phone the sider would take most of the width: the menu opens as a drawer instead.
  return (
    <Layout style={{ height: '100dvh', overflow: 'hidden' }}>
      {phone ? (
        <Drawer
          placement="left"
          open={navOpen}
          onClose={closeNavDrawer}
          closable={false}
          size={264}
          styles={{ body: { padding: 0, background: '#001529', display: 'flex', flexDirection: 'column' } }}
          data-testid="nav-drawer"
        >
          {brand(true)}
          {nav(true)}
        </Drawer>
      ) : (
        <Layout.Sider
          theme="dark"
          width={232}
          collapsible
          collapsed={collapsed}
          trigger={null}
          style={{ height: '100dvh' }}
        >
          <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
            {brand(!collapsed)}
            {nav(false)}
          </div>
        </Layout.Sider>
      )}
      <Layout style={{ height: '100dvh', minWidth: 0 }}>
        <Layout.Header
          style={{
            background: token.colorBgContainer,
            padding: phone ? '0 8px' : '0 20px 0 8px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 8,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
            flex: 'none',
            zIndex: 10,
            height: 56,
          }}
        >
          <div style={{ display: 'flex', alignItems: 'center', gap: phone ? 4 : 12, minWidth: 0, flex: 1 }}>
            <Button
              type="text"
              aria-label={phone ? t('nav.open') : collapsed ? t('nav.expand') : t('nav.collapse')}
              aria-expanded={phone ? navOpen : !collapsed}
              icon={collapsed || phone ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => (phone ? setNavOpen(true) : setCollapsed((c) => !c))}
              data-testid="nav-toggle"
            />
            <ProjectSwitcher compact={phone} />
          </div>
          <div style={{ display: 'flex', alignItems: 'center', gap: 12, flex: 'none' }}>
            {session.accessType === 'openapi' && !phone ? (
              <Tag color="purple">{t('header.openapi')}</Tag>
            ) : null}
            <AlarmBadge projectId={project?.id} />
            <AccountMenu session={session} onLogout={doLogout} compact={phone} />
          </div>
        </Layout.Header>
        <Layout.Content
          style={{ flex: 1, minHeight: 0, overflow: 'auto' }}
          data-testid="content-scroll"
          ref={contentRef}
        >
          {/* Padding inside the scroller, so sticky table headers stick to its very top. */}
          <div style={{ padding: phone ? 12 : 24 }}>
            <Suspense fallback={<ContentSpin />}>
              {session.accessType === 'web' && location.pathname === '/overview/preview' ? (
                <JoinedDevicesAlert />
              ) : null}
              <Outlet />
            </Suspense>
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
