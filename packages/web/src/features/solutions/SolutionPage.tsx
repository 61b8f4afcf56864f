import { FilePdfOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Skeleton, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { errorText, showError } from '../../state/feedback.ts';
import { useScenarioLabel } from '../projects/ScenarioSelect.tsx';
import { saveFile, solutionsApi } from './api.ts';
import { SolutionPreview } from './SolutionPreview.tsx';

/** /solutions/:id — the preview of a saved (or shared) solution, with its PDF. */
export function SolutionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const scenarioLabel = useScenarioLabel();
  const id = Number(useParams().id);
  const solution = useQuery({ queryKey: ['solutions', id], queryFn: () => solutionsApi.get(id) });
  if (!solution.data) {
    return solution.isError ? (
      <Alert type="error" showIcon title={errorText(solution.error)} />
    ) : (
      <Skeleton active />
    );
  }
  const s = solution.data;
  return (
    <>
      <PageTitle
        title={s.name}
        extra={
          <Space wrap>
            <Tag>{scenarioLabel(s.scenario)}</Tag>
            {s.readOnly ? <Tag color="blue">{t('solutions.sharedBy', { owner: s.owner })}</Tag> : null}
            <Button onClick={() => navigate('/solutions')}>{t('solutions.backToList')}</Button>
            {s.readOnly ? null : (
              <Button onClick={() => navigate(`/solutions/${id}/edit`)}>{t('solutions.edit')}</Button>
            )}
            <Button
              type="primary"
              icon={<FilePdfOutlined />}
              data-testid="solution-page-pdf"
              onClick={async () => {
                if (!(await saveFile(solutionsApi.pdfUrl(id), `${s.name}.pdf`)))
                  showError(t('solutions.pdfFailed'));
              }}
            >
              {t('solutions.pdf')}
            </Button>
          </Space>
        }
      />
      <SolutionPreview recommendation={s.recommendation} />
    </>
  );
}
