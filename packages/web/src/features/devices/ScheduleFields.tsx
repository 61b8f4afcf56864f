import { formatTimeZone } from '@beacon/protocol';
import { Checkbox, Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';

/** Monday first, as people read a week. */
const DAYS = [1, 2, 3, 4, 5, 6, 0];

/**
 * The scheduled-reboot fields (on/off, days, HH:MM); `scheduleParams` turns them into parameters.
 * The time is on the project's clock (`zone`), which the server keeps across daylight saving.
 */
export function ScheduleFields({ zone }: { zone?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="enabled" label={t('devices.scheduleEnabled')} initialValue={true}>
        <Radio.Group
          options={[
            { value: true, label: t('common.yes') },
            { value: false, label: t('common.no') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="days"
        label={t('devices.scheduleDays')}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, value: number[] | undefined) =>
              getFieldValue('enabled') === false || (value?.length ?? 0) > 0
                ? Promise.resolve()
                : Promise.reject(new Error(t('devices.scheduleNeedsDay'))),
          }),
        ]}
      >
        <Checkbox.Group
          data-testid="schedule-days"
          options={DAYS.map((x) => ({ value: x, label: t(`devices.day.${x}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="time"
        label={t('devices.scheduleTime')}
        initialValue="03:00"
        extra={zone ? t('devices.scheduleZone', { zone: formatTimeZone(zone) }) : undefined}
        rules={[{ pattern: /^([01]\d|2[0-3]):[0-5]\d$/, message: t('devices.scheduleTimeFormat') }]}
      >
        <Input data-testid="schedule-time" placeholder="HH:MM" style={{ width: 120 }} />
      </Form.Item>
    </>
  );
}
