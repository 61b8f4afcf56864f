import {
  COUNTRY_CODES,
  countryChannels,
  domainOf,
  maxPowerFor,
  type RfView,
  validateWifiCountry,
} from '@beacon/protocol';
import { Button, Card, Descriptions, Popconfirm, Progress, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { countryName } from '../overview/countries.ts';
import { rfApi } from './api.ts';

interface Props {
  projectId: number;
  view: RfView;
  writable: boolean;
  show(next: RfView): void;
}

const OPTIONS = COUNTRY_CODES.map((code) => ({ value: code, label: `${countryName(code)} (${code})` })).sort(
  (a, b) => a.label.localeCompare(b.label),
);

/** The Wi-Fi country: its channels and power limits, a change (confirmed) and the re-adaptation's progress. */
export function CountryCard({ projectId, view, writable, show }: Props) {
  const { t } = useTranslation();
  const [country, setCountry] = useState(view.country);
  const [saving, setSaving] = useState(false);
  const domain = domainOf(country);
  const check = validateWifiCountry(country);
  const save = async () => {
    setSaving(true);
    try {
      show(await rfApi.country(projectId, country));
      showSuccess(t('rf.country.saved'));
    } catch (e) {
      showError(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  const adaptation = view.adaptation;
  return (
    <Card size="small" title={t('rf.country.title')} data-testid="rf-country-card">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <label htmlFor="rf-country">{t('rf.country.label')}</label>
          <Select
            id="rf-country"
            showSearch
            optionFilterProp="label"
            value={country}
            options={OPTIONS}
            onChange={setCountry}
            disabled={!writable}
            style={{ minWidth: 240, maxWidth: '100%' }}
            data-testid="rf-country"
          />
          <Popconfirm
            title={t('rf.country.confirmTitle', { country: countryName(country) })}
            description={t('rf.country.confirm')}
            okText={t('rf.country.change')}
            cancelText={t('rf.cancel')}
            onConfirm={save}
            disabled={!writable || country === view.country || !!check || adaptation !== null}
          >
            <Button
              loading={saving}
              disabled={!writable || country === view.country || !!check || adaptation !== null}
              data-testid="rf-country-save"
            >
              {t('rf.country.change')}
            </Button>
          </Popconfirm>
        </Space>
        {check && <Typography.Text type="danger">{check.message}</Typography.Text>}
        <Descriptions size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label={t('rf.country.rules')}>{domain.name}</Descriptions.Item>
          <Descriptions.Item label={t('rf.country.channels24')}>
            {countryChannels(country, '2.4G').join(', ')} (
            {t('rf.dbmMax', { value: maxPowerFor(country, '2.4G', 0) })})
          </Descriptions.Item>
          <Descriptions.Item label={t('rf.country.channels5')}>
            {countryChannels(country, '5G').join(', ')} (
            {t('rf.dbmMax', { value: maxPowerFor(country, '5G', 0) })})
          </Descriptions.Item>
        </Descriptions>
        {adaptation && (
          <div data-testid="rf-adapting">
            <Typography.Text>
              {t('rf.country.adapting', {
                country: adaptation.country,
                done: adaptation.done,
                total: adaptation.total,
              })}
            </Typography.Text>
            <Progress
              percent={adaptation.progress}
              status="active"
              aria-label={t('rf.country.adaptingLabel')}
            />
          </div>
        )}
      </Space>
    </Card>
  );
}
