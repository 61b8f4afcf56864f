import type { ProjectView } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../api/index.ts';
import { propertyKey } from '../features/projects/labels.ts';
import { selectProject, useCurrentProject } from '../session/currentProject.ts';

export const SWITCHER_QUERY = { page: 1, pageSize: 200, sort: 'name', order: 'asc' } as const;

export function ProjectTags({ project }: { project: Pick<ProjectView, 'isDemo' | 'property' | 'netMode'> }) {
  const { t } = useTranslation();
  const color =
    project.property === 'own' ? 'blue' : project.property === 'shared_read' ? 'default' : 'green';
  return (
    <>
      {project.isDemo ? (
        <Tag color="gold" data-testid="tag-demo">
          {t('project.demo')}
        </Tag>
      ) : null}
      {project.isDemo ? null : <Tag color={color}>{t(propertyKey(project))}</Tag>}
    </>
  );
}

/** Header project switcher: lists the projects and makes the chosen one current. */
/** `compact` (phones): no visible label, and the select takes the width the header leaves. */
export function ProjectSwitcher({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projects = useQuery({
    queryKey: ['projects', 'switcher'],
    queryFn: () => api.projects(SWITCHER_QUERY),
  });
  const items = projects.data?.items ?? [];
  const options: { value: number; label: string; project: ProjectView }[] = items.map((p) => ({
    value: p.id,
    label: p.name,
    project: p,
  }));
  if (current && !items.some((p) => p.id === current.id)) {
    options.unshift({ value: current.id, label: current.name, project: undefined as unknown as ProjectView });
  }
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0, flex: compact ? 1 : 'none' }}>
      {compact ? null : <Typography.Text type="secondary">{t('header.project')}</Typography.Text>}
      <Select
        data-testid="project-switcher"
        aria-label={t('header.project')}
        style={compact ? { width: '100%', minWidth: 0 } : { width: 300 }}
        popupMatchSelectWidth={compact ? false : 420}
        placeholder={t('header.selectProject')}
        loading={projects.isLoading}
        value={current?.id}
        showSearch={{ optionFilterProp: 'label' }}
        notFoundContent={t('header.noProjects')}
        options={options}
        optionRender={(opt) => {
          const p = (opt.data as { project?: ProjectView }).project;
          return (
            <div
              data-testid={`project-option-${opt.value}`}
              style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}
            >
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                {opt.label}{' '}
                {p ? <Typography.Text type="secondary">{t(`netMode.${p.netMode}`)}</Typography.Text> : null}
              </span>
              <span>{p ? <ProjectTags project={p} /> : null}</span>
            </div>
          );
        }}
        onChange={(id: number) => {
          const p = items.find((x) => x.id === id);
          if (p) selectProject(p);
        }}
      />
    </div>
  );
}
