import { Button, Card, Empty, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageTitle } from '../layout/PageTitle.tsx';

/** A project screen with no current project: its title and a way to the project list. */
export function NoProject({ title, loading = false }: { title: string; loading?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <PageTitle title={title} />
      <Card>
        {loading ? (
          <Skeleton active />
        ) : (
          <Empty description={t('project.noneSelected')} data-testid="no-project">
            <Button type="primary" onClick={() => navigate('/overview/list')}>
              {t('project.goToList')}
            </Button>
          </Empty>
        )}
      </Card>
    </>
  );
}
