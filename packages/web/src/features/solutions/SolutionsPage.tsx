import { FilePdfOutlined, PlusOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { SolutionSummary } from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Space, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { useKeyboardScroll } from '../../components/useKeyboardScroll.ts';
import { reportFailure } from '../../forms/useFormSubmit.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { showError } from '../../state/feedback.ts';
import { useScenarioLabel } from '../projects/ScenarioSelect.tsx';
import { SOLUTIONS_KEY, saveFile, solutionsApi } from './api.ts';
import { ShareModal } from './ShareModal.tsx';

/** The solution list (name, scenario, modified date): own solutions and read-only shared ones. */
export function SolutionsPage() {
  const { t } = useTranslation();
  const tableBox = useRef<HTMLDivElement>(null);
  useKeyboardScroll(tableBox, t('solutions.title'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const scenarioLabel = useScenarioLabel();
  const [sharing, setSharing] = useState<SolutionSummary | null>(null);
  const list = useQuery({ queryKey: SOLUTIONS_KEY, queryFn: solutionsApi.list });
  const remove = useMutation({
    mutationFn: (s: SolutionSummary) => solutionsApi.remove(s.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SOLUTIONS_KEY }),
    onError: (e) => reportFailure(e),
  });
  const pdf = async (s: SolutionSummary) => {
    if (!(await saveFile(solutionsApi.pdfUrl(s.id), `${s.name}.pdf`))) showError(t('solutions.pdfFailed'));
  };
  return (
    <>
      <PageTitle
        title={t('solutions.title')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => navigate('/solutions/new')}
            data-testid="solution-new"
          >
            {t('solutions.new')}
          </Button>
        }
      />
      <Card>
        <div ref={tableBox}>
          <Table<SolutionSummary>
            rowKey="id"
            loading={list.isLoading}
            dataSource={list.data ?? []}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            scroll={{ x: 640 }}
            locale={{ emptyText: t('solutions.empty') }}
            columns={[
              {
                title: t('solutions.name'),
                dataIndex: 'name',
                render: (name: string, s) => (
                  <Space wrap>
                    <Link to={`/solutions/${s.id}`} data-testid="solution-open">
                      {name}
                    </Link>
                    {s.readOnly ? <Tag>{t('solutions.sharedBy', { owner: s.owner })}</Tag> : null}
                  </Space>
                ),
              },
              {
                title: t('solutions.scenario'),
                dataIndex: 'scenario',
                render: (v: string) => scenarioLabel(v),
              },
              {
                title: t('solutions.modified'),
                dataIndex: 'modifiedAt',
                render: (v: string) => new Date(v).toLocaleString('en-US'),
              },
              {
                title: t('common.actions'),
                key: 'actions',
                render: (_, s) => (
                  <Space wrap>
                    <Button
                      size="small"
                      icon={<FilePdfOutlined />}
                      onClick={() => void pdf(s)}
                      data-testid="solution-pdf"
                    >
                      {t('solutions.pdf')}
                    </Button>
                    {s.readOnly ? null : (
                      <>
                        <Button size="small" onClick={() => navigate(`/solutions/${s.id}/edit`)}>
                          {t('solutions.edit')}
                        </Button>
                        <Button size="small" icon={<ShareAltOutlined />} onClick={() => setSharing(s)}>
                          {t('solutions.share')}
                        </Button>
                        <DeleteButton
                          confirm={t('solutions.deleteConfirm', { name: s.name })}
                          onConfirm={() => remove.mutate(s)}
                        />
                      </>
                    )}
                  </Space>
                ),
              },
            ]}
          />
        </div>
      </Card>
      {sharing ? <ShareModal solution={sharing} onClose={() => setSharing(null)} /> : null}
    </>
  );
}
