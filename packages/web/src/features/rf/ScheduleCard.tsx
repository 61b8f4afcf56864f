import { formatDateTimeInZone, type RfView, validateRfSchedule } from '@beacon/protocol';
import { Button, Card, Checkbox, Input, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { rfApi } from './api.ts';

interface Props {
  projectId: number;
  view: RfView;
  writable: boolean;
  refresh(): void;
}

const DAYS = [0, 1, 2, 3, 4, 5, 6];

/** Scheduled automatic optimisation: days and time on the project's clock. */
export function ScheduleCard({ projectId, view, writable, refresh }: Props) {
  const { t } = useTranslation();
  const s = view.schedule;
  const [enabled, setEnabled] = useState(s.enabled);
  const [days, setDays] = useState<number[]>(s.days);
  const [time, setTime] = useState(s.time);
  const [saving, setSaving] = useState(false);
  const check = enabled ? validateRfSchedule(days, time) : null;
  const save = async () => {
    setSaving(true);
    try {
      await rfApi.schedule(projectId, { enabled, days, time });
      showSuccess(t('rf.schedule.saved'));
      refresh();
    } catch (e) {
      showError(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card size="small" title={t('rf.schedule.title')} data-testid="rf-schedule-card">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Switch
            id="rf-schedule-enabled"
            checked={enabled}
            onChange={setEnabled}
            disabled={!writable}
            aria-label={t('rf.schedule.enabled')}
          />
          <label htmlFor="rf-schedule-enabled">{t('rf.schedule.enabled')}</label>
        </Space>
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <legend style={{ fontSize: 14, marginBottom: 4 }}>{t('rf.schedule.days')}</legend>
          <Checkbox.Group
            value={days}
            onChange={(v) => setDays(v as number[])}
            disabled={!writable || !enabled}
            options={DAYS.map((d) => ({ value: d, label: t(`rf.schedule.day.${d}`) }))}
          />
        </fieldset>
        <Space wrap>
          <label htmlFor="rf-schedule-time">{t('rf.schedule.time', { zone: s.timeZone })}</label>
          <Input
            id="rf-schedule-time"
            value={time}
            onChange={(e) => setTime(e.target.value)}
            disabled={!writable || !enabled}
            placeholder="HH:MM"
            maxLength={5}
            style={{ width: 100 }}
          />
          <Button
            onClick={save}
            loading={saving}
            disabled={!writable || !!check}
            data-testid="rf-schedule-save"
          >
            {t('rf.schedule.save')}
          </Button>
        </Space>
        {check && <Typography.Text type="danger">{check.message}</Typography.Text>}
        {s.enabled && s.nextRunAt && (
          <Typography.Text type="secondary">
            {t('rf.schedule.next', { at: formatDateTimeInZone(s.nextRunAt, s.timeZone) })}
          </Typography.Text>
        )}
      </Space>
    </Card>
  );
}
