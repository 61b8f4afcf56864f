import {
  AppstoreOutlined,
  BarChartOutlined,
  LogoutOutlined,
  QuestionCircleOutlined,
  SolutionOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { SessionView } from '@beacon/protocol';
import { Avatar, Dropdown, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** `compact` (phones): the avatar alone; the name is still in the button's accessible name. */
export function AccountMenu({
  session,
  onLogout,
  compact = false,
}: {
  session: SessionView;
  onLogout: () => void;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = session.account.nick || session.account.account;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          {
            key: 'profile',
            icon: <UserOutlined />,
            label: <span data-testid="account-menu-profile">{t('header.profile')}</span>,
          },
          {
            key: 'solutions',
            icon: <SolutionOutlined />,
            label: <span data-testid="account-menu-solutions">{t('solutions.title')}</span>,
          },
          {
            key: 'reports',
            icon: <BarChartOutlined />,
            label: <span data-testid="account-menu-reports">{t('reports.title')}</span>,
          },
          {
            key: 'models',
            icon: <AppstoreOutlined />,
            label: <span data-testid="account-menu-models">{t('models.title')}</span>,
          },
          // Account management (docs/decisions/0059): main accounts in the web console only.
          ...(session.account.parentId === null && session.accessType === 'web'
            ? [
                {
                  key: 'team',
                  icon: <TeamOutlined />,
                  label: <span data-testid="account-menu-team">{t('team.menu')}</span>,
                },
              ]
            : []),
          {
            key: 'help',
            icon: <QuestionCircleOutlined />,
            label: <span data-testid="account-menu-help">{t('help.menu')}</span>,
          },
          { type: 'divider' as const },
          {
            key: 'logout',
            icon: <LogoutOutlined />,
            label: <span data-testid="logout">{t('header.logout')}</span>,
          },
        ],
        onClick: ({ key }) => {
          if (key === 'profile') navigate('/account');
          if (key === 'solutions') navigate('/solutions');
          if (key === 'reports') navigate('/reports/devices');
          if (key === 'models') navigate('/models');
          if (key === 'team') navigate('/account/management');
          if (key === 'help') navigate('/help');
          if (key === 'logout') onLogout();
        },
      }}
    >
      <button
        type="button"
        data-testid="account-menu"
        aria-label={t('header.accountMenuOf', { name })}
        style={{ background: 'none', border: 0, cursor: 'pointer', padding: '0 4px', height: 40 }}
      >
        <Space size={8}>
          <Avatar size="small" src={session.account.avatarUrl ?? undefined} icon={<UserOutlined />} />
          {compact ? null : <Typography.Text>{name}</Typography.Text>}
        </Space>
      </button>
    </Dropdown>
  );
}
