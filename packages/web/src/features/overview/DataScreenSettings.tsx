import { COUNTRY_CODES, type DataScreenView, LIMITS, SaveDataScreenBody } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Select } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { dataScreenKey, overviewApi } from './api.ts';
import { countryName } from './countries.ts';

interface FormValues {
  title: string;
  subtitle: string;
  countries: string[];
}

/** Edit the data screen's title, subtitle and countries (writers; the server refuses the others). */
export function DataScreenSettings({
  projectId,
  value,
  open,
  onClose,
}: {
  projectId: number;
  value: DataScreenView | undefined;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit(form);
  const options = useMemo(
    () =>
      COUNTRY_CODES.map((code) => ({ value: code, label: `${countryName(code)} (${code})` })).sort((a, b) =>
        a.label.localeCompare(b.label),
      ),
    [],
  );

  useEffect(() => {
    if (!open || !value) return;
    form.resetFields();
    form.setFieldsValue({ title: value.title, subtitle: value.subtitle, countries: value.countries });
  }, [open, value, form]);

  const submit = async () => {
    const values = blanks(form.getFieldsValue(true) as FormValues & Record<string, unknown>, [
      'title',
      'subtitle',
    ]);
    await run(async () => {
      const body = parseForm(SaveDataScreenBody, { ...values, countries: values.countries ?? [] }, form);
      if (!body) return;
      const saved = await withLoadState('saving', () => overviewApi.saveDataScreen(projectId, body));
      queryClient.setQueryData(dataScreenKey(projectId), saved);
      showSuccess(t('dataScreen.saved_ok'));
      onClose();
    });
  };

  return (
    <Modal
      open={open}
      title={t('dataScreen.settingsTitle')}
      onCancel={onClose}
      onOk={submit}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'data-screen-save' }}
      width={520}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="data-screen-form"
        onFinish={submit}
      >
        <Form.Item name="title" label={t('dataScreen.screenTitle')} extra={t('dataScreen.screenTitleHint')}>
          <Input
            data-testid="data-screen-title-input"
            count={{ show: true, max: LIMITS.DATA_SCREEN_TITLE_MAX }}
          />
        </Form.Item>
        <Form.Item name="subtitle" label={t('dataScreen.subtitle')} extra={t('dataScreen.subtitleHint')}>
          <Input
            data-testid="data-screen-subtitle-input"
            count={{ show: true, max: LIMITS.DATA_SCREEN_SUBTITLE_MAX }}
          />
        </Form.Item>
        <Form.Item name="countries" label={t('dataScreen.countries')} extra={t('dataScreen.countriesHint')}>
          <Select
            mode="multiple"
            maxCount={LIMITS.DATA_SCREEN_COUNTRIES}
            options={options}
            placeholder={t('dataScreen.countriesPlaceholder')}
            showSearch={{ optionFilterProp: 'label' }}
            aria-label={t('dataScreen.countries')}
            data-testid="data-screen-countries"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
