import type { RouteEntry } from '@beacon/protocol';
import { Card, Empty, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { useCurrentProject } from '../../session/currentProject.ts';

const BETA = new Set(['/manage/visualization/td', '/manage/visualization/topo']);

/** Screens that later issues fill: the title and a short empty-state line. */
export function PlaceholderPage({ route }: { route: RouteEntry }) {
  const { t } = useTranslation();
  const project = useCurrentProject();
  return (
    <>
      <PageTitle
        title={t(route.titleKey)}
        extra={BETA.has(route.path) ? <Tag color="purple">{t('routeEmpty.beta')}</Tag> : undefined}
      />
      <Card>
        <Empty
          data-testid="route-empty"
          description={
            <>
              <div>{t('routeEmpty.default')}</div>
              {project ? null : <div>{t('routeEmpty.noProject')}</div>}
            </>
          }
        />
      </Card>
    </>
  );
}
