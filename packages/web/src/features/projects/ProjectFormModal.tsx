import {
  CreateProjectBody,
  DEFAULT_TIME_ZONE,
  NetMode,
  type ProjectView,
  timeZoneChoices,
  UpdateProjectBody,
} from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Radio, Select } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { currentProject, selectProject } from '../../session/currentProject.ts';
import { showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { ScenarioSelect } from './ScenarioSelect.tsx';

/** A neutral preset so a project can be created with just a name. */
const DEFAULT_SCENARIO = 'other';

interface FormValues {
  name: string;
  netMode: number;
  scenario?: string;
  location: string;
  address: string;
  timeZone: string;
}

/** Create (project === null) or edit a project. */
export function ProjectFormModal({
  open,
  project,
  onClose,
  onSaved,
}: {
  open: boolean;
  project: ProjectView | null;
  onClose: () => void;
  onSaved?: (p: ProjectView) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit(form);
  // Labels carry today's offset (SPEC.md §9); the search matches a city or an offset such as "+08".
  const tzOptions = useMemo(() => timeZoneChoices(new Date(), project?.timeZone), [project?.timeZone]);
  const editing = project !== null;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      project
        ? {
            name: project.name,
            netMode: project.netMode,
            scenario: project.scenario,
            location: project.location,
            address: project.address,
            timeZone: project.timeZone,
          }
        : {
            name: '',
            netMode: NetMode.WLAN,
            scenario: DEFAULT_SCENARIO,
            location: '',
            address: '',
            timeZone: DEFAULT_TIME_ZONE,
          },
    );
  }, [open, project, form]);

  const submit = async () => {
    const values = blanks(form.getFieldsValue(true) as FormValues & Record<string, unknown>, [
      'name',
      'scenario',
      'location',
      'address',
    ]);
    await run(async () => {
      let saved: ProjectView;
      if (project) {
        const changed: Record<string, unknown> = {};
        for (const k of ['name', 'scenario', 'location', 'address', 'timeZone'] as const) {
          if (values[k] !== project[k]) changed[k] = values[k];
        }
        const body = parseForm(UpdateProjectBody, changed, form);
        if (!body) return;
        saved = await withLoadState('saving', () => api.updateProject(project.id, body));
        showSuccess(t('project.updated_ok'));
      } else {
        const body = parseForm(CreateProjectBody, values, form);
        if (!body) return;
        saved = await withLoadState('saving', () => api.createProject(body));
        showSuccess(t('project.created_ok'));
      }
      // A new project becomes the current one: the next screen the user opens is about it.
      if (!project || currentProject.get()?.id === saved.id) selectProject(saved);
      queryClient.invalidateQueries({ queryKey: ['projects'] });
      queryClient.invalidateQueries({ queryKey: ['project', saved.id] });
      onSaved?.(saved);
      onClose();
    });
  };

  return (
    <Modal
      open={open}
      title={editing ? t('project.editTitle') : t('project.createTitle')}
      onCancel={onClose}
      onOk={submit}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'project-form-submit' }}
      width={560}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="project-form"
        style={{ marginTop: 16 }}
        onFinish={submit}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT' && !e.defaultPrevented) {
            const inSelect = (e.target as HTMLElement).closest('.ant-select');
            if (!inSelect) {
              e.preventDefault();
              void submit();
            }
          }
        }}
      >
        <Form.Item name="name" label={t('project.name')}>
          <Input
            autoFocus
            placeholder={t('project.namePlaceholder')}
            data-testid="project-form-name"
            maxLength={16}
          />
        </Form.Item>
        <Form.Item
          name="netMode"
          label={t('project.type')}
          extra={editing ? t('project.netModeFixed') : undefined}
        >
          <Radio.Group disabled={editing} data-testid="project-form-netmode">
            <Radio value={NetMode.WLAN} data-testid="project-form-netmode-wlan">
              {t('netMode.0')}
            </Radio>
            <Radio value={NetMode.MESH} data-testid="project-form-netmode-mesh">
              {t('netMode.1')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="scenario" label={t('project.scenario')}>
          <ScenarioSelect />
        </Form.Item>
        <Form.Item name="location" label={t('project.location')}>
          <Input
            placeholder={t('project.locationPlaceholder')}
            data-testid="project-form-location"
            maxLength={64}
          />
        </Form.Item>
        <Form.Item name="address" label={t('project.address')}>
          <Input
            placeholder={t('project.addressPlaceholder')}
            data-testid="project-form-address"
            maxLength={128}
          />
        </Form.Item>
        <Form.Item name="timeZone" label={t('project.timeZone')}>
          <Select
            options={tzOptions}
            showSearch={{ optionFilterProp: 'label' }}
            virtual
            data-testid="project-form-timezone"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
