import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAlarmUnreadCount } from './useAlarmUnreadCount.ts';

/** The header's bell: the current project's unread alarms, live; opens the alarm screen. */
export function AlarmBadge({ projectId }: { projectId: number | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const unread = useAlarmUnreadCount(projectId);
  if (projectId === undefined) return null;
  const label = t('alarms.badge', { count: unread ?? 0 });
  return (
    <Tooltip title={label}>
      <Badge count={unread ?? 0} overflowCount={99} size="small" data-testid="alarm-badge-count">
        <Button
          type="text"
          icon={<BellOutlined />}
          aria-label={label}
          data-testid="alarm-badge"
          data-unread={unread ?? 0}
          onClick={() => navigate('/manage/alarminfo')}
        />
      </Badge>
    </Tooltip>
  );
}
