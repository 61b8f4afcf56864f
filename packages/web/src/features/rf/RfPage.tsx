import { Alert, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { canWrite } from '../../session/currentProject.ts';
import { CountryCard } from './CountryCard.tsx';
import { LogCard } from './LogCard.tsx';
import { OptimiseCard } from './OptimiseCard.tsx';
import { RadiosCard } from './RadiosCard.tsx';
import { ScheduleCard } from './ScheduleCard.tsx';
import { useRf } from './useRf.ts';

/**
 * /manage/rfconf (WLAN projects): automatic optimisation with its progress, the Wi-Fi country, the
 * APs' radios with manual settings and the roaming tuner, the schedule and the optimisation log
 * (issue 11, docs/decisions/0048).
 */
export function RfPage() {
  const { t } = useTranslation();
  const rf = useRf();
  const title = t('route.rf');
  if (!rf.project || rf.projectId === undefined) return <NoProject title={title} />;
  const writable = canWrite(rf.project);
  const view = rf.view;
  return (
    <div data-testid="rf-page">
      <PageTitle title={title} />
      {!writable && <Alert type="info" showIcon message={t('rf.readOnly')} style={{ marginBottom: 16 }} />}
      {rf.loading || !view ? (
        <Skeleton active />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <OptimiseCard
            projectId={rf.projectId}
            view={view}
            runs={rf.runs}
            writable={writable}
            refresh={rf.refresh}
            show={rf.show}
          />
          <CountryCard projectId={rf.projectId} view={view} writable={writable} show={rf.show} />
          <RadiosCard projectId={rf.projectId} view={view} writable={writable} refresh={rf.refresh} />
          <ScheduleCard projectId={rf.projectId} view={view} writable={writable} refresh={rf.refresh} />
          <LogCard projectId={rf.projectId} runs={rf.runs} timeZone={view.schedule.timeZone} />
        </Space>
      )}
    </div>
  );
}
